import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildGatewayApp } from '../../src/app.js';
import { loadGatewayConfig } from '../../src/config.js';

export interface RunningGateway {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** The real gateway listening on a random port, configured only through its environment variables. */
export async function startGateway(env: Record<string, string>): Promise<RunningGateway> {
  const app = await buildGatewayApp(loadGatewayConfig({ NODE_ENV: 'test', ...env }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** A response body as JSON, typed loosely for assertions. */
export function readJson(res: Response): Promise<any> {
  return res.json() as Promise<any>;
}

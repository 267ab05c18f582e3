import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseStepList, STEP_CATALOG, STEP_NAMES, WORKER_ENV_KEYS } from '@csp/batch';
import { GATEWAY_ENV_KEYS } from '@csp/gateway/config';
import { opsEnvShape, SERVICE_CONFIG_KEYS } from '@csp/service-kit/ops';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * No Docker engine here: this proves what can be proven without one. Every container of
 * docker-compose.yml builds from a context and Dockerfile that exist, runs an entry point whose source
 * exists, sets only variables its process reads, and listens on the port the local launcher uses.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, any>;
};
const launcher = readFileSync(join(ROOT, 'infra/launcher/start.mjs'), 'utf8');
const launcherPorts: Record<string, number> = Object.fromEntries(
  [.../const SERVICE_PORTS = \{([^}]*)\}/.exec(launcher)![1]!.matchAll(/'?([\w-]+)'?:\s*(\d+)/g)].map((m) => [m[1]!, Number(m[2])]),
);
const GATEWAY_PORT = Number(/const GATEWAY_PORT = (\d+)/.exec(launcher)![1]);
const OPS_KEYS = Object.keys(opsEnvShape);
/** Read by node itself or by the OpenTelemetry SDK that server.ts / worker.ts start (startTracing). */
const RUNTIME_KEYS = (key: string) => key === 'NODE_OPTIONS' || key.startsWith('OTEL_');

const serviceProcess = readFileSync(join(ROOT, 'packages/service-kit/src/service-process.ts'), 'utf8');
const startsTracing = (source: string) =>
  /startTracing\(/.test(source) || (/runServiceProcess\(/.test(source) && /startTracing\(/.test(serviceProcess));

const built = Object.entries(compose.services).filter(([, s]) => s.build);
const entryOf = (s: any): string => (s.command ? s.command[1] : `services/${s.build.args.SERVICE}/dist/server.js`);
const sourceOf = (entry: string) => entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts');
const envOf = (s: any): Record<string, string> => s.environment ?? {};

describe('docker-compose.yml', () => {
  it('builds every application container from a context and Dockerfile that exist', () => {
    expect(built.map(([name]) => name).sort()).toEqual(
      ['analytics', 'auth-platform', 'gateway', 'intake', 'intake-worker', 'ledger-settlement', 'ledger-settlement-worker',
        'master-data', 'payment-tax', 'payment-tax-worker', 'worker-calc-maintain'].sort(),
    );
    for (const [name, s] of built) {
      expect(existsSync(join(ROOT, s.build.context)), name).toBe(true);
      expect(existsSync(join(ROOT, s.build.context, s.build.dockerfile)), name).toBe(true);
      expect(existsSync(join(ROOT, 'services', s.build.args.SERVICE, 'package.json')), name).toBe(true);
    }
    // the Dockerfile's default command is the server of the SERVICE build arg
    expect(readFileSync(join(ROOT, 'infra/Dockerfile'), 'utf8')).toContain('exec node services/${SERVICE}/dist/server.js');
  });

  it("runs an entry point whose source exists in the container's own service", () => {
    for (const [name, s] of built) {
      const entry = entryOf(s);
      expect(entry.startsWith(`services/${s.build.args.SERVICE}/dist/`), `${name}: ${entry}`).toBe(true);
      expect(existsSync(join(ROOT, sourceOf(entry))), `${name}: ${sourceOf(entry)}`).toBe(true);
      if (s.command) expect(s.command[0]).toBe('node');
    }
  });

  it("turns the simulations' queue on in exactly one worker group, as the local launcher does", () => {
    const on = built.filter(([, s]) => envOf(s).SIMULATION_WORKER === 'true').map(([name]) => name);
    expect(on).toEqual(['ledger-settlement-worker']);
    expect(launcher).toContain("const WORKER_ENV = { 'ledger-settlement': { SIMULATION_WORKER: 'true' } };");
  });

  it('sets only environment variables the process reads (its config schema)', () => {
    for (const [name, s] of built) {
      const service = s.build.args.SERVICE as string;
      const entrySource = readFileSync(join(ROOT, sourceOf(entryOf(s))), 'utf8');
      const worker = entryOf(s).endsWith('/worker.js');
      let known: string[];
      if (service === 'gateway') known = [...GATEWAY_ENV_KEYS];
      else if (worker) known = [...WORKER_ENV_KEYS, ...OPS_KEYS];
      else known = [...SERVICE_CONFIG_KEYS, ...OPS_KEYS];
      // A service's own settings are declared in its server.ts/worker.ts (or the shape it passes, in app.ts).
      const ownSource = entrySource + (worker ? '' : readFileSync(join(ROOT, `services/${service}/src/app.ts`), 'utf8'));
      for (const key of Object.keys(envOf(s))) {
        if (RUNTIME_KEYS(key)) {
          if (key.startsWith('OTEL_')) expect(startsTracing(entrySource), `${name} starts tracing`).toBe(true);
          continue;
        }
        const read = known.includes(key) || new RegExp(`\\b${key}: z\\.`).test(ownSource);
        expect(read, `${name} sets ${key}, which it does not read`).toBe(true);
      }
    }
  });

  it('a worker group with BATCH_STEPS names steps of its own service, and each step of a service runs in one group', () => {
    const covered = new Map<string, string[]>();
    for (const [name, s] of built.filter(([, s]) => entryOf(s).endsWith('/worker.js'))) {
      const service = s.build.args.SERVICE as string;
      const steps = parseStepList(envOf(s).BATCH_STEPS) ?? STEP_NAMES.filter((st) => STEP_CATALOG[st].service === service);
      for (const step of steps) {
        expect(STEP_CATALOG[step].service, `${name} runs ${step}`).toBe(service);
        covered.set(step, [...(covered.get(step) ?? []), name]);
      }
    }
    for (const step of STEP_NAMES) expect(covered.get(step), step).toHaveLength(1);
  });

  it("listens on the launcher's ports and the gateway reaches every service there", () => {
    const gateway = compose.services.gateway;
    expect(envOf(gateway).PORT).toBe(String(GATEWAY_PORT));
    expect(gateway.ports[0]).toMatch(new RegExp(`:${GATEWAY_PORT}$`));
    for (const [service, port] of Object.entries(launcherPorts)) {
      expect(envOf(compose.services[service]).PORT, service).toBe(String(port));
      const urlKey = `${service.replace(/-/g, '_').toUpperCase()}_URL`;
      expect(envOf(gateway)[urlKey], urlKey).toBe(`http://${service}:${port}`);
    }
  });

  it('Prometheus scrapes the metrics port every application container sets, and Grafana is provisioned from the repo', () => {
    const prom = parse(readFileSync(join(ROOT, 'infra/prometheus/prometheus.yml'), 'utf8'));
    const targets = prom.scrape_configs.flatMap((c: any) => c.dns_sd_configs.flatMap((d: any) => d.names.map((n: string) => [n, d.port])));
    const scraped = new Map<string, number>(targets);
    for (const [name, s] of built) {
      expect(envOf(s).METRICS_PORT, name).toBe('9464');
      expect(scraped.get(name), `${name} is scraped`).toBe(9464);
    }
    for (const mount of [...compose.services.prometheus.volumes, ...compose.services.grafana.volumes]) {
      const host = String(mount).split(':')[0]!;
      if (host.startsWith('./')) expect(existsSync(join(ROOT, host)), host).toBe(true);
    }
  });
});

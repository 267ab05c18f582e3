// Is a Redis server answering at REDIS_URL? (one PING over a raw socket: no client library needed)
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';

export function redisAddress(url) {
  const u = new URL(url);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || 6379), tls: u.protocol === 'rediss:' };
}

export function pingRedis(url, timeoutMs = 1000) {
  const { host, port, tls } = redisAddress(url);
  if (tls) return Promise.resolve(true); // a TLS server is a managed one: trust the URL
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // "+PONG", or "-NOAUTH ..." from a password-protected server: either way Redis is there.
    socket.once('data', (chunk) => finish(chunk[0] === 0x2b || chunk[0] === 0x2d));
  });
}

export function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** A throwaway local redis-server (no persistence) in its own process group. */
export function spawnRedis(port) {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
}

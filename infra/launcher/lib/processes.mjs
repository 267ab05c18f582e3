// Child processes of the launcher: each in its own process group (so a terminal Ctrl-C reaches only
// the launcher, which then stops them in order), output prefixed with the child's tag.
import { spawn } from 'node:child_process';
import { makeTag, pipeTagged } from './output.mjs';

export function startChild({ name, command, args, env, cwd, detached = true }) {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached });
  const tag = makeTag(name);
  pipeTagged(child.stdout, tag);
  pipeTagged(child.stderr, tag, process.stderr);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', (err) => resolve(err.message));
  });
  return { process: child, exited };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export function stopChild(child, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// Local-development secrets kept in .data/ (never used in production, where they come from the env).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function writePrivate(file, content) {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** JWT_SECRET / ENCRYPT_KEY / embedded PostgreSQL password: env first, else generated once. */
export function loadSecrets(dataDir, env = process.env) {
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    // 32 characters: AES-256 takes the key as 32 bytes.
    encryptKey: stored.encryptKey ?? randomBytes(24).toString('base64url'),
    pgPassword: stored.pgPassword ?? randomBytes(18).toString('base64url'),
  };
  if (JSON.stringify(secrets) !== JSON.stringify(stored)) writePrivate(file, `${JSON.stringify(secrets, null, 2)}\n`);
  return {
    jwtSecret: env.JWT_SECRET || secrets.jwtSecret,
    encryptKey: env.ENCRYPT_KEY || secrets.encryptKey,
    pgPassword: secrets.pgPassword,
  };
}

/**
 * The initial administrator's password: ADMIN_PASSWORD, else the one generated on first start and
 * kept in .data/admin-password. `generated` is true only the first time, when it must be shown.
 */
export function loadAdminPassword(dataDir, env = process.env) {
  if (env.ADMIN_PASSWORD) return { password: env.ADMIN_PASSWORD, source: 'env', generated: false };
  const file = join(dataDir, 'admin-password');
  if (existsSync(file)) return { password: readFileSync(file, 'utf8').trim(), source: 'file', generated: false };
  // Upper, lower, digit and symbol, whatever the random part happens to contain.
  const password = `Adm${randomBytes(12).toString('base64url')}#7`;
  writePrivate(file, `${password}\n`);
  return { password, source: 'file', generated: true };
}

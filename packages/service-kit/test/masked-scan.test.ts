import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { createFieldCipher, createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { installMaskedScan, TEST_ENCRYPT_KEY } from '../src/masked-scan.js';
import { setup } from '../src/vitest-masked-scan.global.js';
import { createTestContext, maskedScanFailure, readMaskedScanReports, scanDatabase, type TestContext } from '../src/testing.js';
import { createDemoSchema, DEMO_MENU } from './demo-app.js';

// Issue 22: the scan every service suite runs over its test databases before they are dropped
// (vitest.shared.ts `maskedScan`) finds a masked value planted in each kind of column.
const cards = defineResource({
  name: 'Card',
  path: '/api/cards',
  table: 'demo_card',
  alias: 'k',
  menu: DEMO_MENU,
  fields: {
    cardId: f.id(),
    holder: f.text().save(),
    accountNo: f.text({ max: 200 }).save().encrypted().masked('accountNo'),
  },
});

const cipher = createFieldCipher(TEST_ENCRYPT_KEY);
const otherKey = createFieldCipher('another-key-of-some-other-app-00');
const dbName = (ctx: TestContext<ServiceApp>) => new URL(ctx.config.DATABASE_URL).pathname.slice(1);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'masked-scan-test-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A database with a Card field table and masked values planted in users.phone and demo_card.account_no. */
async function planted(): Promise<{ ctx: TestContext<ServiceApp>; userId: string; cardIds: string[] }> {
  const ctx = await createTestContext({
    serviceName: 'masked-scan-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_card (card_id bigserial PRIMARY KEY, holder varchar(50), account_no varchar(200))`.execute(deps.db);
      const app = await createServiceApp({ name: 'masked-scan-test', ...deps });
      registerResource(app, cards);
      return app;
    },
  });
  const user = await sql<{ user_id: string }>`
    INSERT INTO users (login_id, password, user_name, status, phone, email)
    VALUES ('planted', '!', 'Planted', 'ACTIVE', '010-****-7049', 'kim@example.com') RETURNING user_id::text`.execute(ctx.db);
  const cardsIn = await sql<{ card_id: string }>`
    INSERT INTO demo_card (holder, account_no) VALUES
      ('full', ${cipher.encrypt('123-456-789012')}),
      ('masked, encrypted', ${cipher.encrypt('123-***-******')}),
      ('masked, stored raw', '123-***-******'),
      ('none', NULL),
      ('masked, another key', ${otherKey.encrypt('110-***-******')}),
      ('full, another key', ${otherKey.encrypt('110-123-456789')})
    RETURNING card_id::text`.execute(ctx.db);
  return { ctx, userId: user.rows[0]!.user_id, cardIds: cardsIn.rows.map((r) => r.card_id) };
}

/** This file's planted values are its own: keep them out of the suite's verdict. */
function withdrawFromSuiteScan(name: string) {
  const suiteDir = inject('maskedScanDir');
  if (suiteDir) rmSync(join(suiteDir, `${name}.json`), { force: true });
}

describe('the masked-column scan over a test database', () => {
  it('finds a masked value in a plain, an encrypted and a not-encrypted column, and nothing in full values', async () => {
    const { ctx, userId, cardIds } = await planted();
    const name = dbName(ctx);
    try {
      const scan = await scanDatabase({
        url: ctx.config.DATABASE_URL,
        database: name,
        columns: [{ table: 'demo_card', idColumn: 'card_id', column: 'account_no', encrypted: true }, { table: 'users', idColumn: 'user_id', column: 'phone' }],
        ciphers: [cipher, otherKey],
      });
      // each ciphertext is read with the key that gives readable text (the first key's garbage does not count)
      expect(scan.findings).toEqual([
        { database: name, table: 'demo_card', column: 'account_no', id: cardIds[1] },
        { database: name, table: 'demo_card', column: 'account_no', id: cardIds[2] },
        { database: name, table: 'demo_card', column: 'account_no', id: cardIds[4] },
        { database: name, table: 'users', column: 'phone', id: userId },
      ]);
      // the data dictionary's personal and banking columns are scanned too, the names are not
      expect(scan.columns).toEqual(expect.arrayContaining(['agent.account_no', 'agent.phone', 'agent.resident_no', 'payment.account_no', 'users.email']));
      expect(scan.columns).not.toContain('agent.agent_name');
    } finally {
      await ctx.close();
      withdrawFromSuiteScan(name);
    }
  });

  it('runs before the drop, driven by the registered field tables, and the teardown fails naming db, table, column and row', async () => {
    const dir = tempDir();
    const remove = installMaskedScan(dir);
    const { ctx, userId, cardIds } = await planted();
    const name = dbName(ctx);
    try {
      await ctx.close();
    } finally {
      remove();
      withdrawFromSuiteScan(name);
    }
    expect(readdirSync(dir)).toEqual([`${name}.json`]);
    const summary = readMaskedScanReports(dir);
    expect(summary.databases).toBe(1);
    expect(summary.columns).toEqual(expect.arrayContaining(['demo_card.account_no', 'users.phone', 'withdraw_request.account_no']));
    expect(summary.findings).toEqual([
      { database: name, table: 'demo_card', column: 'account_no', id: cardIds[1] },
      { database: name, table: 'demo_card', column: 'account_no', id: cardIds[2] },
      { database: name, table: 'users', column: 'phone', id: userId },
    ]);
    expect(maskedScanFailure(summary)).toBe(
      `masked-column scan: 3 stored value(s) contain the mask character '*' (DECISIONS "Masked and encrypted fields are write-only"):\n` +
        `  ${name} demo_card.account_no row ${cardIds[1]}\n  ${name} demo_card.account_no row ${cardIds[2]}\n  ${name} users.phone row ${userId}`,
    );

    // the globalSetup's teardown over such a folder: throws (vitest then fails the run) and sets the exit code
    let provided = '';
    const teardown = setup({ provide: (_key: string, value: string) => (provided = value) } as never);
    cpSync(join(dir, `${name}.json`), join(provided, `${name}.json`));
    const exitCode = process.exitCode;
    try {
      expect(() => teardown()).toThrow(`${name} users.phone row ${userId}`);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = exitCode;
    }
    expect(existsSync(provided)).toBe(false);
  });

  it('a clean database gives a clean verdict', async () => {
    const dir = tempDir();
    const remove = installMaskedScan(dir);
    let db: TestDatabase | undefined;
    try {
      db = await createTestDatabase();
      await db.drop();
    } finally {
      remove();
    }
    const summary = readMaskedScanReports(dir);
    expect(summary).toMatchObject({ databases: 1, findings: [], errors: [] });
    expect(maskedScanFailure(summary)).toBeUndefined();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientTransaction, copyRows, copyText, CopyWriter, createDb } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(
    `CREATE TABLE copy_probe (id int PRIMARY KEY, label text, amount numeric(15,2), doc jsonb, flag boolean)`,
  );
});
afterAll(async () => {
  await t?.drop();
});
beforeEach(async () => {
  await t.pool.query('TRUNCATE copy_probe');
});

const COLUMNS = ['id', 'label', 'amount', 'doc', 'flag'] as const;
const rowsOf = async () =>
  (await t.pool.query('SELECT id, label, amount, doc, flag FROM copy_probe ORDER BY id')).rows;

describe('copyText', () => {
  it('writes NULL as \\N and escapes backslash, tab, newline and carriage return', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(12)).toBe('12');
    expect(copyText(true)).toBe('true');
    expect(copyText('plain')).toBe('plain');
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
  });
});

describe('CopyWriter inside clientTransaction', () => {
  it('stores every row, with special characters and JSON intact, and counts them', async () => {
    const doc = JSON.stringify({ quote: 'say "hi"', path: 'C:\\tmp', tab: '\t' });
    const count = await clientTransaction(t.db, async ({ client }) => {
      const writer = new CopyWriter(client, 'copy_probe', COLUMNS, 2);
      for (let id = 1; id <= 5; id++) {
        writer.write([id, id === 3 ? 'line\nbreak' : `row ${id}`, '1234.50', doc, id % 2 === 0]);
        await writer.flush();
      }
      writer.write([6, null, null, null, null]);
      return writer.end();
    });
    expect(count).toBe(6);
    const rows = await rowsOf();
    expect(rows).toHaveLength(6);
    expect(rows[2]).toEqual({
      id: 3,
      label: 'line\nbreak',
      amount: '1234.50',
      doc: { quote: 'say "hi"', path: 'C:\\tmp', tab: '\t' },
      flag: false,
    });
    expect(rows[5]).toEqual({ id: 6, label: null, amount: null, doc: null, flag: null });
  });

  it('shares the transaction with Kysely queries on the same connection', async () => {
    await clientTransaction(t.db, async ({ db, client }) => {
      const writer = new CopyWriter(client, 'copy_probe', COLUMNS);
      writer.write([1, 'copied', '1.00', null, true]);
      await writer.end();
      const seen = await db
        .selectFrom('copy_probe' as never)
        .select('label' as never)
        .execute();
      expect(seen).toEqual([{ label: 'copied' }]);
      // another connection does not see the uncommitted row yet
      expect((await t.pool.query('SELECT count(*)::int AS n FROM copy_probe')).rows[0].n).toBe(0);
    });
    expect((await rowsOf()).map((r) => r.label)).toEqual(['copied']);
  });

  it('rolls back everything, COPY included, when the work throws', async () => {
    await expect(
      clientTransaction(t.db, async ({ db, client }) => {
        const writer = new CopyWriter(client, 'copy_probe', COLUMNS);
        writer.write([1, 'kept?', '1.00', null, true]);
        await writer.end();
        await db
          .insertInto('copy_probe' as never)
          .values({ id: 2, label: 'too' } as never)
          .execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await rowsOf()).toEqual([]);
  });

  it('fails with the PostgreSQL error of a bad row and leaves nothing behind; the pool stays usable', async () => {
    await expect(
      clientTransaction(t.db, async ({ client }) => {
        const writer = new CopyWriter(client, 'copy_probe', COLUMNS, 1);
        writer.write([1, 'ok', '1.00', null, true]);
        await writer.flush();
        writer.write([1, 'duplicate key', '1.00', null, true]);
        return writer.end();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await rowsOf()).toEqual([]);
    await clientTransaction(t.db, async ({ db }) => {
      await db
        .insertInto('copy_probe' as never)
        .values({ id: 9, label: 'after' } as never)
        .execute();
    });
    expect((await rowsOf()).map((r) => r.id)).toEqual([9]);
  });

  it('rolls back promptly when the work throws while a COPY is still open (the COPY is failed first)', async () => {
    const failed = clientTransaction(t.db, async ({ client }) => {
      const writer = new CopyWriter(client, 'copy_probe', COLUMNS, 1);
      writer.write([1, 'half way', '1.00', null, true]);
      await writer.flush();
      writer.write([2, 'buffered', '2.00', null, true]);
      throw new Error('computation failed mid-chunk');
    });
    const hung = new Promise((_resolve, reject) =>
      setTimeout(() => reject(new Error('transaction hung')), 5_000),
    );
    await expect(Promise.race([failed, hung])).rejects.toThrow('computation failed mid-chunk');
    expect(await rowsOf()).toEqual([]);
    // the pool's connections are all usable afterwards
    await Promise.all(
      [1, 2, 3].map((id) =>
        clientTransaction(t.db, ({ db }) =>
          db
            .insertInto('copy_probe' as never)
            .values({ id, label: 'after' } as never)
            .execute(),
        ),
      ),
    );
    expect((await rowsOf()).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('refuses a Db that was not created by createDb', async () => {
    const { Kysely, PostgresDialect } = await import('kysely');
    const foreign = new Kysely<never>({ dialect: new PostgresDialect({ pool: t.pool }) });
    await expect(
      clientTransaction(foreign as unknown as typeof t.db, () => Promise.resolve(1)),
    ).rejects.toThrow(/not created by createDb/);
    expect(createDb(t.pool)).toBeDefined();
  });
});

describe('copyRows', () => {
  it('loads an iterable of rows in batches and returns the count', async () => {
    function* rows() {
      for (let id = 1; id <= 2_500; id++) yield [id, `r${id}`, `${id}.05`, null, null];
    }
    const client = await t.pool.connect();
    try {
      expect(await copyRows(client, 'copy_probe', COLUMNS, rows(), 1_000)).toBe(2_500);
    } finally {
      client.release();
    }
    const { rows: sums } = await t.pool.query(
      'SELECT count(*)::int AS n, sum(amount)::text AS total FROM copy_probe',
    );
    // sum(1..2500) + 2500 * 0.05 = 3,126,250 + 125
    expect(sums[0]).toEqual({ n: 2_500, total: '3126375.00' });
  });
});

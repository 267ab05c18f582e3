import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFuzzReport, fuzzOpenApi, type FuzzReport } from '@csp/service-kit/testing';
import { setup, type Ctx } from './helpers.js';

const RUNS = 15;
const MULTIPART_RUNS = 30;
let ctx: Ctx;
let report: FuzzReport;
let multipartReport: FuzzReport;

/**
 * The fuzzer acts as the seeded admin and may lock it, take its roles, deactivate or delete menus or
 * revoke SUPER_ADMIN grants (all valid requests). After every operation that access is put back from
 * a snapshot, so later operations are still reached past the guard.
 */
async function snapshotAccess(): Promise<void> {
  for (const table of ['menu', 'menu_permission', 'role', 'role_menu_permission', 'user_role', 'users']) {
    await sql`CREATE TABLE ${sql.id(`fuzz_saved_${table}`)} AS SELECT * FROM ${sql.id(table)}`.execute(ctx.db);
  }
}

async function restoreAccess(): Promise<void> {
  const statements = [
    sql`UPDATE users u SET status = s.status, fail_count = 0 FROM fuzz_saved_users s WHERE u.user_id = s.user_id AND s.login_id = 'admin'`,
    sql`INSERT INTO role SELECT * FROM fuzz_saved_role ON CONFLICT (role_id) DO UPDATE SET is_active = EXCLUDED.is_active, role_code = EXCLUDED.role_code`,
    // Parents before children: deleted menus come back level by level.
    sql`INSERT INTO menu SELECT * FROM fuzz_saved_menu WHERE menu_level <= 1 ON CONFLICT (menu_id) DO UPDATE SET is_active = EXCLUDED.is_active, menu_code = EXCLUDED.menu_code`,
    sql`INSERT INTO menu SELECT * FROM fuzz_saved_menu WHERE menu_level = 2 ON CONFLICT (menu_id) DO UPDATE SET is_active = EXCLUDED.is_active, menu_code = EXCLUDED.menu_code`,
    sql`INSERT INTO menu SELECT * FROM fuzz_saved_menu WHERE menu_level >= 3 ON CONFLICT (menu_id) DO UPDATE SET is_active = EXCLUDED.is_active, menu_code = EXCLUDED.menu_code`,
    sql`INSERT INTO menu_permission SELECT * FROM fuzz_saved_menu_permission ON CONFLICT DO NOTHING`,
    sql`INSERT INTO user_role SELECT * FROM fuzz_saved_user_role ON CONFLICT DO NOTHING`,
    sql`INSERT INTO role_menu_permission SELECT * FROM fuzz_saved_role_menu_permission
        ON CONFLICT (role_id, menu_id, perm_code) DO UPDATE SET is_granted = EXCLUDED.is_granted`,
  ];
  for (const statement of statements) await statement.execute(ctx.db);
  await ctx.app.permissions.invalidate();
}

beforeAll(async () => {
  ctx = await setup();
  await snapshotAccess();
  report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: RUNS, afterOperation: restoreAccess });
  console.log(formatFuzzReport(report));
  // the upload operation with hostile files and broken forms (the document does not describe multipart)
  multipartReport = await fuzzOpenApi({
    app: ctx.app,
    token: ctx.adminToken,
    document: { paths: {} },
    multipart: {
      'POST /api/files/upload': {
        query: { groupId: ['fuzz-group', 'g.1'] },
      },
    },
    multipartRuns: MULTIPART_RUNS,
  });
  console.log(formatFuzzReport(multipartReport));
}, 300_000);
afterAll(async () => {
  await ctx?.close();
});

describe('OpenAPI fuzz (every operation, fixed seed)', () => {
  it(`sends ${RUNS} generated requests to every operation`, () => {
    expect(report.operations.length).toBeGreaterThan(0);
    expect(report.operations.filter((o) => o.runs !== RUNS)).toEqual([]);
  });

  it('never answers with a 5xx and always with the envelope', () => {
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
  });

  it('stays authorised throughout (the guard is passed, so handlers are reached)', () => {
    const refused = report.operations.filter((o) => !o.operation.startsWith('POST /api/auth/') && (o.statuses['401'] ?? 0) + (o.statuses['403'] ?? 0) === o.runs);
    expect(refused).toEqual([]);
  });
});

describe('OpenAPI fuzz of the upload operation (multipart, hostile files)', () => {
  it(`sends ${MULTIPART_RUNS} generated forms to POST /api/files/upload; no 5xx, always the envelope`, () => {
    expect(multipartReport.operations.map((o) => [o.operation, o.runs])).toEqual([['POST /api/files/upload [multipart]', MULTIPART_RUNS]]);
    expect(multipartReport.failures).toEqual([]);
    expect(multipartReport.serverErrors).toBe(0);
  });
});

describe('multipart text (file names and form fields)', () => {
  it('an uploaded file name with a NUL is E411 on "file", not a 500', async () => {
    const outcomes = [];
    for (const disposition of [`form-data; name="file"; filename*=UTF-8''a%00b.txt`, 'form-data; name="file"; filename="a\u0000b.txt"']) {
      const boundary = 'fuzzBoundary42';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/plain\r\n\r\n`, 'latin1'),
        Buffer.from('hello'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/files/upload',
        headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      outcomes.push([res.statusCode, res.json().code, res.json().data?.errors]);
    }
    const expected = [400, 'E411', [{ field: 'file', message: 'name must not contain NUL characters' }]];
    expect(outcomes).toEqual([expected, expected]);
  });
});

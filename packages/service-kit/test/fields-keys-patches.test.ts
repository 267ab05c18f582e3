import { sql } from 'kysely';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';

/** A partially updated resource with a `like` filter, a bool filter and a typed computed json field. */
const notes = defineResource({
  name: 'Note',
  path: '/api/notes',
  table: 'demo_note',
  alias: 'n',
  menu: DEMO_MENU,
  fields: {
    noteId: f.id(),
    title: f.text({ max: 40 }).required().filter('like'),
    body: f.text({ max: 200 }).save(),
    pinned: f.bool().save({ default: false }).filter(),
    words: f.computed(sql`regexp_split_to_array(n.title, ' ')`, 'json', z.array(z.string())).nullable(false),
  },
  partialUpdate: true,
});

/** A table keyed by a code: list only. */
const colors = defineResource({
  name: 'Color',
  path: '/api/colors',
  table: 'demo_color',
  alias: 'c',
  menu: DEMO_MENU,
  fields: { colorCode: f.code({ max: 10 }).key(), colorName: f.text().nullable(false).sort() },
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

let ctx: TestContext<ServiceApp>;
let token: string;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: bearer(token) });

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'fields-keys-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_note (note_id bigserial PRIMARY KEY, title varchar(40) NOT NULL, body varchar(200),
        pinned boolean NOT NULL DEFAULT false)`.execute(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_color (color_code varchar(10) PRIMARY KEY, color_name varchar(50) NOT NULL)`.execute(deps.db);
      await sql`INSERT INTO demo_color VALUES ('RED', 'Red'), ('BLUE', 'Blue') ON CONFLICT DO NOTHING`.execute(deps.db);
      const app = await createServiceApp({ name: 'fields-keys-test', ...deps });
      registerResource(app, notes);
      registerResource(app, colors);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('partial updates, like and bool filters, typed computed json', () => {
  it('an update changes only the fields it carries; none is required', async () => {
    const id = (await call('POST', '/api/notes', { title: 'quarter close 50%', body: 'first', pinned: true })).json().data.id;
    expect((await call('PUT', `/api/notes/${id}`, { body: 'second' })).statusCode).toBe(200);
    expect((await call('GET', `/api/notes/${id}`)).json().data).toEqual({
      noteId: id,
      title: 'quarter close 50%',
      body: 'second',
      pinned: true,
      words: ['quarter', 'close', '50%'],
    });
    expect((await call('PUT', `/api/notes/${id}`, { body: null, pinned: false })).statusCode).toBe(200);
    expect((await call('GET', `/api/notes/${id}`)).json().data).toMatchObject({ title: 'quarter close 50%', body: null, pinned: false });
    expect((await call('PUT', `/api/notes/${id}`, { pinned: null })).json().data.errors[0].field).toBe('pinned');
  });

  it('`like` matches a part of the text literally; bool filters take true/false and Y/N', async () => {
    await call('POST', '/api/notes', { title: 'quarter close 5x', pinned: true });
    const titles = async (q: string) => (await call('GET', `/api/notes?${q}`)).json().data.list.map((n: { title: string }) => n.title).sort();
    expect(await titles('title=CLOSE')).toEqual(['quarter close 50%', 'quarter close 5x']);
    expect(await titles(`title=${encodeURIComponent('0%')}`)).toEqual(['quarter close 50%']);
    expect(await titles(`title=${encodeURIComponent('%')}`)).toEqual(['quarter close 50%']);
    expect(await titles('pinned=Y')).toEqual(['quarter close 5x']);
    expect(await titles('pinned=false')).toEqual(['quarter close 50%']);
    expect((await call('GET', `/api/notes?title=${'x'.repeat(41)}`)).statusCode).toBe(400);
  });

  it('a code-keyed resource lists its rows, ordered and tie-broken by the key', async () => {
    const page = (await call('GET', '/api/colors?sortField=colorName')).json().data;
    expect(page.list).toEqual([
      { colorCode: 'BLUE', colorName: 'Blue' },
      { colorCode: 'RED', colorName: 'Red' },
    ]);
    expect((await call('GET', '/api/colors/RED')).statusCode).toBe(404);
  });

  it('a code key that create cannot fill (not required) is refused at declaration', () => {
    expect(() => defineResource({ name: 'X', path: '/api/x', table: 'x', menu: DEMO_MENU, fields: { code: f.code().key() } })).toThrow(
      /the key code is given on create: declare it .required\(\) \(or create: false\)/,
    );
  });
});

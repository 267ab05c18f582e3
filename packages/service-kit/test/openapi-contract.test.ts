import { describe, expect, it } from 'vitest';
import { compareOpenApi } from '../src/testing.js';

type Json = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer' };
const nullableStr = { type: 'string', nullable: true };

function envelopeOf(data: Json): Json {
  return {
    description: 'Default Response',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { success: { type: 'boolean' }, code: str, message: str, timestamp: str, data },
          required: ['success', 'code', 'message', 'timestamp'],
        },
      },
    },
  };
}

const agent = {
  type: 'object',
  properties: { agentId: int, agentName: str, phone: nullableStr, status: { type: 'string', enum: ['ACTIVE', 'LEAVE'] } },
  required: ['agentId', 'agentName', 'status'],
};
const page = { type: 'object', properties: { list: { type: 'array', items: agent }, total: int } };
const saveBody = {
  type: 'object',
  properties: {
    agentName: { type: 'string', minLength: 1 },
    orgId: int,
    premium: { anyOf: [str, { type: 'number' }] },
    version: int,
    items: { type: 'array', items: { type: 'object', properties: { amount: str }, required: ['amount'] } },
  },
  required: ['agentName', 'orgId', 'version'],
};

function baseDoc(): Json {
  return {
    openapi: '3.0.3',
    paths: {
      '/api/agents': {
        get: {
          parameters: [
            { in: 'query', name: 'pageNum', required: false, schema: int },
            { in: 'query', name: 'orgId', required: false, schema: int },
            { in: 'query', name: 'status', required: false, schema: { type: 'string', enum: ['ACTIVE', 'LEAVE'] } },
          ],
          responses: { 200: envelopeOf(page) },
        },
        post: { requestBody: { required: true, content: { 'application/json': { schema: saveBody } } }, responses: { 200: envelopeOf({ type: 'object', properties: { id: int } }) } },
      },
      '/api/agents/{id}': {
        get: { parameters: [{ in: 'path', name: 'id', required: true, schema: int }], responses: { 200: envelopeOf(agent) } },
        put: {
          parameters: [{ in: 'path', name: 'id', required: true, schema: int }],
          requestBody: { required: true, content: { 'application/json': { schema: saveBody } } },
          responses: { 200: envelopeOf({}) },
        },
      },
      '/api/agents/{id}/retire': {
        put: { parameters: [{ in: 'path', name: 'id', required: true, schema: int }], responses: { 200: envelopeOf({}) } },
      },
      '/api/agents/excel': { get: { responses: { 200: { description: 'xlsx' } } } },
    },
  };
}

function edit(mutate: (doc: any) => void): Json {
  const doc = JSON.parse(JSON.stringify(baseDoc())); // no shared sub-objects between operations
  mutate(doc);
  return doc;
}

describe('compareOpenApi: not breaking', () => {
  it('finds nothing between a document and itself', () => {
    expect(compareOpenApi(baseDoc(), baseDoc())).toEqual([]);
  });

  it('accepts additions and cosmetic changes', () => {
    const after = edit((d) => {
      d.paths['/api/agents/{id}/retire'].post = d.paths['/api/agents/{id}/retire'].put; // POST alias
      d.paths['/api/agents/{id}/retire'].put = { ...d.paths['/api/agents/{id}/retire'].put, operationId: 'putAgentsByIdRetire', security: [{ bearerAuth: [] }], 'x-permission': { menu: 'ORG_AGENT', perm: 'UPDATE' }, summary: 'new words' };
      d.paths['/api/grades'] = { get: { responses: { 200: envelopeOf(page) } } }; // new operation
      d.paths['/api/agents'].get.parameters.push({ in: 'query', name: 'gradeId', required: false, schema: int }); // new optional param
      d.paths['/api/agents'].get.responses[200].content['application/json'].schema.properties.data.properties.totalEstimated = { type: 'boolean' };
      d.paths['/api/agents/{id}'].get.responses[200].content['application/json'].schema.properties.data.properties.orgName = str; // new response field
      d.paths['/api/agents/{id}'].put.requestBody.content['application/json'].schema.required = ['agentName', 'orgId']; // version optional
      d.paths['/api/agents/{id}'].put.requestBody.content['application/json'].schema.properties.note = str; // new optional body field
    });
    expect(compareOpenApi(baseDoc(), after)).toEqual([]);
  });

  it('treats a renamed path parameter as the same wire path, and widened request types as compatible', () => {
    const after = edit((d) => {
      const item = d.paths['/api/agents/{id}'];
      delete d.paths['/api/agents/{id}'];
      item.get.parameters[0].name = 'agentId';
      item.put.parameters[0].name = 'agentId';
      d.paths['/api/agents/{agentId}'] = item;
      d.paths['/api/agents'].get.parameters[1].schema = { type: 'number' }; // integer -> number
      d.paths['/api/agents'].get.parameters[2].schema = { type: 'string', enum: ['ACTIVE', 'LEAVE', 'SUSPEND'] };
    });
    expect(compareOpenApi(baseDoc(), after)).toEqual([]);
  });
});

describe('compareOpenApi: breaking', () => {
  it('reports a removed operation', () => {
    const after = edit((d) => delete d.paths['/api/agents/{id}/retire']);
    expect(compareOpenApi(baseDoc(), after)).toEqual([
      { operation: 'PUT /api/agents/{id}/retire', kind: 'operation-removed', location: 'operation', message: 'PUT /api/agents/{id}/retire: operation was removed' },
    ]);
  });

  it('reports query parameters removed, retyped, narrowed or newly required', () => {
    const after = edit((d) => {
      const params = d.paths['/api/agents'].get.parameters;
      params.splice(0, 1); // pageNum removed
      params[0].schema = str; // orgId integer -> string
      params[1].schema = { type: 'string', enum: ['ACTIVE'] }; // LEAVE no longer accepted
      params.push({ in: 'query', name: 'settleMonth', required: true, schema: str });
    });
    expect(compareOpenApi(baseDoc(), after).map((c) => c.message)).toEqual([
      'GET /api/agents: query.pageNum was removed',
      'GET /api/agents: query.orgId type changed from integer to string',
      'GET /api/agents: query.status no longer accepts LEAVE',
      'GET /api/agents: query.settleMonth is a new required parameter',
    ]);
  });

  it('reports a path parameter whose type changed', () => {
    const after = edit((d) => (d.paths['/api/agents/{id}'].get.parameters[0].schema = str));
    expect(compareOpenApi(baseDoc(), after).map((c) => [c.kind, c.location])).toEqual([['parameter-type-changed', 'path.id']]);
  });

  it('reports request body properties removed, retyped or newly required, nested ones too', () => {
    const after = edit((d) => {
      const schema = d.paths['/api/agents'].post.requestBody.content['application/json'].schema;
      delete schema.properties.orgId;
      schema.properties.premium = str; // number no longer accepted
      schema.properties.phone = str;
      schema.required = ['agentName', 'version', 'phone'];
      schema.properties.items.items.properties.rate = str;
      schema.properties.items.items.required = ['amount', 'rate'];
    });
    expect(compareOpenApi(baseDoc(), after).map((c) => `${c.kind} ${c.location}`)).toEqual([
      'body-property-removed body.orgId',
      'body-property-type-changed body.premium',
      'body-property-now-required body.items[].rate',
      'body-property-now-required body.phone',
    ]);
  });

  it('reports response data properties removed or retyped (a new null counts), deep in page lists', () => {
    const after = edit((d) => {
      const item = d.paths['/api/agents'].get.responses[200].content['application/json'].schema.properties.data.properties.list.items;
      delete item.properties.phone;
      item.properties.agentId = str;
      item.properties.agentName = nullableStr;
    });
    expect(compareOpenApi(baseDoc(), after).map((c) => c.message)).toEqual([
      'GET /api/agents: response.data.list[].agentId type changed from integer to string',
      'GET /api/agents: response.data.list[].agentName type changed from string to null|string',
      'GET /api/agents: response.data.list[].phone was removed',
    ]);
  });

  it('reports a JSON response that is gone and a body that is now required', () => {
    const after = edit((d) => {
      d.paths['/api/agents/{id}'].get.responses[200] = { description: 'binary' };
      d.paths['/api/agents/{id}/retire'].put.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object', properties: { reason: str }, required: ['reason'] } } } };
    });
    expect(compareOpenApi(baseDoc(), after).map((c) => `${c.operation} ${c.kind}`)).toEqual([
      'GET /api/agents/{id} response-removed',
      'PUT /api/agents/{id}/retire body-now-required',
    ]);
  });

  it('follows local $refs on both sides', () => {
    const before = edit((d) => {
      d.components = { schemas: { Agent: agent } };
      d.paths['/api/agents/{id}'].get.responses[200] = envelopeOf({ $ref: '#/components/schemas/Agent' });
    });
    const after = edit((d) => {
      d.components = { schemas: { Agent: { ...agent, properties: { ...agent.properties, agentName: int } } } };
      d.paths['/api/agents/{id}'].get.responses[200] = envelopeOf({ $ref: '#/components/schemas/Agent' });
    });
    expect(compareOpenApi(before, after).map((c) => c.location)).toEqual(['response.data.agentName']);
  });
});

import { describe, expect, it } from 'vitest';
import { mergeOpenApiDocuments } from '../src/openapi-merge.js';

describe('mergeOpenApiDocuments', () => {
  it('keeps the first definition of a path or schema two services define differently and reports it', () => {
    const { document, conflicts } = mergeOpenApiDocuments(
      [
        { service: 'auth-platform', doc: { paths: { '/api/x': { get: { summary: 'a' } } }, components: { schemas: { S: { type: 'string' } } } } },
        { service: 'master-data', doc: { paths: { '/api/x': { get: { summary: 'b' } } }, components: { schemas: { S: { type: 'number' } } } } },
      ],
      [],
    );
    expect(document.paths).toEqual({ '/api/x': { get: { summary: 'a' } } });
    expect(document.components).toEqual({ schemas: { S: { type: 'string' } } });
    expect(conflicts).toEqual(['paths./api/x', 'components.schemas.S']);
  });

  it('treats identical shared schemas as one, without a conflict', () => {
    const shared = { type: 'object', properties: { success: { type: 'boolean' } } };
    const { document, conflicts } = mergeOpenApiDocuments(
      [
        { service: 'auth-platform', doc: { openapi: '3.1.0', paths: {}, components: { schemas: { ApiResponse: shared } } } },
        { service: 'master-data', doc: { paths: {}, components: { schemas: { ApiResponse: shared } } } },
      ],
      ['intake'],
    );
    expect(conflicts).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
    expect(document.components).toEqual({ schemas: { ApiResponse: shared } });
    expect(document.info.description).toBe(
      'All services behind the gateway. Included: auth-platform, master-data. Not reachable right now: intake.',
    );
  });

  it('produces a valid empty document when no service answers', () => {
    const { document } = mergeOpenApiDocuments([], ['auth-platform']);
    expect(document).toEqual({
      openapi: '3.0.3',
      info: {
        title: 'Commission settlement platform API',
        version: '1.0.0',
        description: 'All services behind the gateway. Included: none. Not reachable right now: auth-platform.',
      },
      paths: {},
      'x-services': { available: [], unavailable: ['auth-platform'] },
    });
  });
});

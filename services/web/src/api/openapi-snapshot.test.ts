import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The committed snapshot the typed client is generated from. */
const doc = JSON.parse(readFileSync(new URL('../../openapi/gateway.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { properties?: { data?: unknown } } }> }> }>>;
  components?: { schemas?: Record<string, unknown> };
};

describe('OpenAPI snapshot', () => {
  it('has no untyped value left by a dangling $ref', () => {
    expect(JSON.stringify(doc)).not.toContain('untyped here');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((name) => !(name in (doc.components?.schemas ?? {})))).toEqual([]);
  });

  it('types the menu and organization trees as named recursive components', () => {
    const data = (path: string) => doc.paths[path]!.get!.responses!['200']!.content!['application/json']!.schema!.properties!.data;
    expect(data('/api/menus/my')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MyMenuNode' } });
    expect(data('/api/menus/tree')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MenuTreeNode' } });
    expect(data('/api/orgs')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/OrgTreeNode' } });
    const node = doc.components!.schemas!.OrgTreeNode as { properties: { children: unknown } };
    expect(node.properties.children).toEqual({ type: 'array', items: { $ref: '#/components/schemas/OrgTreeNode' } });
  });
});

import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zId, type Resource, type ServiceApp } from '@csp/service-kit';
import { reviseBase, reviseResult, reviseRule, type RevisableRule } from './rule-revision.js';

/**
 * The routes of a revisable rule: the field table's CRUD plus `POST|PUT {path}/{id}/revise` (spec 9, the
 * same revision as commission rates and payout rules). The revise body takes `effectiveFrom`, the optional
 * `version` and the rule's changeable fields (`changeable`: field key -> column), validated like the save
 * body (required ones required); an optional field left out keeps the revised row's value.
 */
export function registerRevisableRule(
  app: ServiceApp,
  resource: Resource,
  rule: RevisableRule,
  changeable: Readonly<Record<string, string>>,
): void {
  registerResource(app, resource);
  const saveShape = resource.schemas.save.shape as Record<string, z.ZodType>;
  // required fields stay required; a defaulted one is optional without its default (absent = unchanged)
  const fieldOf = (key: string) => {
    const schema = saveShape[key]!;
    return schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType).optional() : schema;
  };
  const fields = Object.fromEntries(Object.keys(changeable).map((key) => [key, fieldOf(key)]));
  const body = z.object(fields).extend(reviseBase);

  action(
    app,
    `${resource.path}/:id/revise`,
    {
      config: perm(rule.menu, 'CREATE'),
      schema: {
        tags: resource.tags,
        summary: 'New revision: closes the row at effectiveFrom and inserts the next version',
        params: z.object({ id: zId }),
        body,
        response: { 200: envelope(reviseResult) },
      },
    },
    async (request) => {
      const b = request.body as Record<string, unknown> & { effectiveFrom: string; version?: number };
      const changes: Record<string, unknown> = {};
      for (const [key, column] of Object.entries(changeable)) if (b[key] !== undefined) changes[column] = b[key];
      return ok(await reviseRule(app.db, request, rule, request.params.id, b, changes));
    },
  );
}

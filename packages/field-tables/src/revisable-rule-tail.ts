import { f } from '@csp/service-kit';

/**
 * The fields every revisable rule table ends with (half-open validity, revision version, audit), in export
 * column order: one definition for the rule field tables here and master-data's rule resources. Fresh
 * builders per call (each resource compiles its own). A table whose version is not sortable overrides
 * `version` after the spread (the key keeps its place).
 */
export function revisableRuleTail() {
  return {
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    version: f.version().sort().label('Version'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  };
}

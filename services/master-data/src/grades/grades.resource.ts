import { defineResource, f } from '@csp/service-kit';

/** Grades are seeded reference data (V010); the API only lists them, under the agent menu. */
export const gradeResource = defineResource({
  name: 'Grade',
  path: '/api/grades',
  table: 'grade',
  alias: 'g',
  menu: 'ORG_AGENT',
  tags: ['Grade'],
  fields: {
    gradeId: f.id().label('Grade ID'),
    gradeCode: f.code().nullable(false).search().label('Code'),
    gradeName: f.text().nullable(false).sort().search().label('Name').export({ width: 25 }),
    gradeLevel: f.int().nullable(false).sort().label('Level'),
    gradeGroup: f.text().filter().export(false),
    gradeGroupName: f.codeName('GRADE_GROUP', 'gradeGroup').label('Group'),
    description: f.text().export(false),
    isActive: f.bool().filter().label('Active'),
    sortOrder: f.int().nullable(false).sort().export(false),
  },
  defaultSort: 'sortOrder',
  create: false,
  update: false,
  delete: false,
  detail: false,
  export: 'EXPORT',
});

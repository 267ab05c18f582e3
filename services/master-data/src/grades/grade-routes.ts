import { z } from 'zod';
import { applySort, listQuery, ok, pageResponse, paginate, perm, sendSpreadsheet, streamRows, type ServiceApp } from '@csp/service-kit';
import { codeName, mdDb, type MdExecutor } from '../people-db.js';
import { escapeLike } from '../orgs/org-repository.js';
import { zBoolQuery } from '../orgs/org-schemas.js';

// Grades are seeded reference data (V010); the API only reads them, under the agent menu.
const MENU = 'ORG_AGENT';
const tags = ['Grade'];

const gradeResp = z.object({
  gradeId: z.number().int(),
  gradeCode: z.string(),
  gradeName: z.string(),
  gradeLevel: z.number().int(),
  gradeGroup: z.string().nullable(),
  gradeGroupName: z.string().nullable(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
});

const sortable = { gradeId: 'grade_id', gradeName: 'grade_name', gradeLevel: 'grade_level', sortOrder: 'sort_order' };
const gradeListQuery = listQuery(['gradeId', 'gradeName', 'gradeLevel', 'sortOrder'] as const, {
  gradeGroup: z.string().max(30).optional(),
  isActive: zBoolQuery.optional(),
});
type GradeFilters = Omit<z.output<typeof gradeListQuery>, 'pageNum' | 'pageSize'>;
const sortOptions = { sortable, defaultSort: 'sort_order' };

function gradeSelect(db: MdExecutor, f: GradeFilters) {
  let q = db
    .selectFrom('grade')
    .select((eb) => [
      'grade_id',
      'grade_code',
      'grade_name',
      'grade_level',
      'grade_group',
      codeName('GRADE_GROUP', eb.ref('grade_group')).as('grade_group_name'),
      'description',
      'is_active',
      'sort_order',
    ]);
  if (f.gradeGroup) q = q.where('grade_group', '=', f.gradeGroup);
  if (f.isActive !== undefined) q = q.where('is_active', '=', f.isActive);
  const keyword = f.searchKeyword?.trim();
  if (keyword) {
    const pattern = `%${escapeLike(keyword)}%`;
    q = q.where((eb) => eb.or([eb('grade_name', 'ilike', pattern), eb('grade_code', 'ilike', pattern)]));
  }
  return q;
}

type GradeRow = Awaited<ReturnType<ReturnType<typeof gradeSelect>['executeTakeFirstOrThrow']>>;

function toGradeResp(r: GradeRow): z.infer<typeof gradeResp> {
  return {
    gradeId: r.grade_id,
    gradeCode: r.grade_code,
    gradeName: r.grade_name,
    gradeLevel: r.grade_level,
    gradeGroup: r.grade_group,
    gradeGroupName: r.grade_group_name,
    description: r.description,
    isActive: r.is_active,
    sortOrder: r.sort_order,
  };
}

export async function registerGradeRoutes(app: ServiceApp): Promise<void> {
  const db = mdDb(app);

  app.get(
    '/api/grades',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'List grades', querystring: gradeListQuery, response: { 200: pageResponse(gradeResp) } },
    },
    async (request) => {
      const page = await paginate(gradeSelect(db, request.query), request.query, sortOptions);
      return ok({ ...page, list: page.list.map(toGradeResp) });
    },
  );

  app.get(
    '/api/grades/excel',
    {
      config: perm(MENU, 'EXPORT'),
      schema: { tags, summary: 'Export grades (xlsx)', querystring: gradeListQuery.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const qb = applySort(gradeSelect(db, request.query), request.query, sortOptions);
      return sendSpreadsheet(reply, {
        fileName: 'grades.xlsx',
        sheetName: 'Grades',
        columns: [
          { header: 'Grade ID', key: 'grade_id' },
          { header: 'Code', key: 'grade_code' },
          { header: 'Name', key: 'grade_name', width: 25 },
          { header: 'Level', key: 'grade_level' },
          { header: 'Group', key: 'grade_group_name' },
          { header: 'Active', key: 'is_active', value: (r: GradeRow) => (r.is_active ? 'Y' : 'N') },
        ],
        rows: streamRows<GradeRow>(app.pool, qb.compile()),
      });
    },
  );
}

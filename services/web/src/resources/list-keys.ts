/** Spec 4.1 common list parameters; filters of a resource add their own keys. A plain module: index.html's
 * boot script (api/boot-fetch.ts) is built from it too. */
export const COMMON_KEYS = [
  'pageNum', 'pageSize', 'searchType', 'searchKeyword', 'startDate', 'endDate', 'status', 'sortField', 'sortOrder',
] as const;

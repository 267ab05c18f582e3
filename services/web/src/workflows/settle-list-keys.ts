/** The settlement list's own URL keys besides the common ones (settle-list-page.tsx, api/boot-fetch.ts). */
export const SETTLE_LIST_KEYS = ['settleMonth', 'agentId', 'orgId'] as const;

/**
 * Which service owns which `/api/<prefix>`: a copy of the routing table in docs/menus-and-routing.md
 * (binding; test/route-table.test.ts fails when the two drift apart).
 */
export const SERVICE_NAMES = [
  'auth-platform',
  'master-data',
  'intake',
  'ledger-settlement',
  'payment-tax',
  'analytics',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export const SERVICE_PREFIXES: Readonly<Record<ServiceName, readonly string[]>> = {
  'auth-platform': [
    'auth',
    'common',
    'codes',
    'menus',
    'files',
    'notifications',
    'notices',
    'system',
    'users',
    'roles',
    'data-domains',
    'data-dictionary',
    'external-call-logs',
    'approvals',
  ],
  'master-data': [
    'grades',
    'orgs',
    'agents',
    'companies',
    'products',
    'contracts',
    'contract-successions',
    'contract-endorsements',
    'contract-complaints',
    'rules',
    'exception-codes',
    'regulatory-limits',
    'chargeback-grades',
    'installment-ratios',
    'installment-plans',
    'agent-contracts',
    'agent-licenses',
    'agent-trainings',
  ],
  intake: ['receive', 'mapping', 'upload-templates', 'upload'],
  'ledger-settlement': [
    'ledger',
    'recon',
    'settle',
    'batch',
    'override-settles',
    'chargebacks',
    'period-closes',
    'settle-corrections',
    'disputes',
    'settle-holds',
    'tax-invoices',
    'carrier-replies',
    'termination-settlements',
    'commission-master',
    'commission-types',
    'incentive-programs',
    'incentive-payments',
    'simulations',
  ],
  'payment-tax': [
    'payments',
    'deductions',
    'statements',
    'agent-annual-incomes',
    'accounting-entries',
    'common/account-codes',
    'withholding-tax-reports',
    'vat-reports',
    'accounting-closes',
    'year-end-statements',
    'internal',
    'withdraw-requests',
  ],
  analytics: ['reports', 'kpi', 'retention-anomalies', 'forecast-kpi'],
};

export interface RouteEntry {
  /** Full path prefix, e.g. `/api/common/account-codes`. */
  prefix: string;
  service: ServiceName;
}

/** Every prefix, longest first, so `common/account-codes` is registered (and matched) before `common`. */
export const ROUTE_TABLE: readonly RouteEntry[] = SERVICE_NAMES.flatMap((service) =>
  SERVICE_PREFIXES[service].map((prefix) => ({ prefix: `/api/${prefix}`, service })),
).sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));

/** The service that answers `path` (query string allowed), or undefined when no prefix owns it. */
export function resolveService(path: string): ServiceName | undefined {
  const pathname = path.split('?', 1)[0] ?? '';
  const entry = ROUTE_TABLE.find((r) => pathname === r.prefix || pathname.startsWith(`${r.prefix}/`));
  return entry?.service;
}

/** Spec 5.2: paths that need no token. Everything else proxied must carry `Authorization: Bearer`. */
export const PUBLIC_PREFIXES: readonly string[] = ['/api/auth'];

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
];
export const SERVICE_PREFIXES = {
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
    'ledger-settlement': ['ledger', 'recon', 'settle', 'batch', 'override-settles', 'chargebacks'],
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
/** Every prefix, longest first, so `common/account-codes` is registered (and matched) before `common`. */
export const ROUTE_TABLE = SERVICE_NAMES.flatMap((service) => SERVICE_PREFIXES[service].map((prefix) => ({ prefix: `/api/${prefix}`, service }))).sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
/** The service that answers `path` (query string allowed), or undefined when no prefix owns it. */
export function resolveService(path) {
    const pathname = path.split('?', 1)[0] ?? '';
    const entry = ROUTE_TABLE.find((r) => pathname === r.prefix || pathname.startsWith(`${r.prefix}/`));
    return entry?.service;
}
/** Spec 5.2: paths that need no token. Everything else proxied must carry `Authorization: Bearer`. */
export const PUBLIC_PREFIXES = ['/api/auth'];
//# sourceMappingURL=route-table.js.map
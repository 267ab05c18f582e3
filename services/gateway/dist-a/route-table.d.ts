/**
 * Which service owns which `/api/<prefix>`: a copy of the routing table in docs/menus-and-routing.md
 * (binding; test/route-table.test.ts fails when the two drift apart).
 */
export declare const SERVICE_NAMES: readonly ["auth-platform", "master-data", "intake", "ledger-settlement", "payment-tax", "analytics"];
export type ServiceName = (typeof SERVICE_NAMES)[number];
export declare const SERVICE_PREFIXES: Readonly<Record<ServiceName, readonly string[]>>;
export interface RouteEntry {
    /** Full path prefix, e.g. `/api/common/account-codes`. */
    prefix: string;
    service: ServiceName;
}
/** Every prefix, longest first, so `common/account-codes` is registered (and matched) before `common`. */
export declare const ROUTE_TABLE: readonly RouteEntry[];
/** The service that answers `path` (query string allowed), or undefined when no prefix owns it. */
export declare function resolveService(path: string): ServiceName | undefined;
/** Spec 5.2: paths that need no token. Everything else proxied must carry `Authorization: Bearer`. */
export declare const PUBLIC_PREFIXES: readonly string[];

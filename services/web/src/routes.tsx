import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';
import { createBrowserRouter, matchRoutes, useRouteError, type RouteObject } from 'react-router';
import { ErrorNotice } from './resources/error-notice.js';
import AppLayout, { Loading } from './shell/app-layout.js';

/** A page's component, with the load of its code to start before it renders. */
interface Page {
  (): ReactElement;
  preload(): Promise<void>;
}

/**
 * A lazily loaded page (React.lazy) that renders its module directly once loaded: the page of the first
 * address is loaded before the first render (main.tsx), and React.lazy would still suspend once on it
 * (one more pass over the layout). Decided once per mount, so that a page never remounts.
 */
function page(load: () => Promise<{ default: ComponentType }>): Page {
  let loaded: ComponentType | undefined;
  const remember = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = lazy(remember);
  function LazyPage() {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(LazyPage, { preload: () => remember().then(() => undefined) });
}

const LoginPage = page(() => import('./auth/login-page.js'));
const HomePage = page(() => import('./pages/home-page.js'));
const ResourcePage = page(() => import('./resources/resource-page.js'));
const SettleListPage = page(() => import('./workflows/settle-list-page.js'));
const ExplainPage = page(() => import('./workflows/explain-page.js'));
const BatchMonitorPage = page(() => import('./workflows/batch-monitor-page.js'));
const KpiPage = page(() => import('./workflows/kpi-page.js'));
const ReceivePage = page(() => import('./workflows/receive-page.js'));
const PaymentsPage = page(() => import('./workflows/payments-page.js'));
const StatementsPage = page(() => import('./workflows/statements-page.js'));
const ApprovalsPage = page(() => import('./workflows/approvals-page.js'));
const ExceptionPage = page(() => import('./workflows/exception-page.js'));
const OrgTreePage = page(() => import('./workflows/org/org-tree-page.js'));
const AgentDetailPage = page(() => import('./workflows/org/agent-detail-page.js'));
const RulePage = page(() => import('./workflows/rules/rule-page.js'));
const ReceiveMappingPage = page(() => import('./workflows/intake/receive-mapping-page.js'));
const MappingWizardPage = page(() => import('./workflows/intake/mapping-wizard-page.js'));
const RolesPage = page(() => import('./workflows/roles/roles-page.js'));
const PermissionMatrixPage = page(() => import('./workflows/roles/permission-matrix-page.js'));
const UsersPage = page(() => import('./workflows/users/users-page.js'));
const ConfigPage = page(() => import('./workflows/config/config-page.js'));
const MyExplainPage = page(() => import('./workflows/portal/my-explain-page.js'));
const MyDisputesPage = page(() => import('./workflows/portal/my-disputes-page.js'));
const MyStatementsPage = page(() => import('./workflows/portal/my-statements-page.js'));
const MyWithdrawPage = page(() => import('./workflows/portal/my-withdraw-page.js'));
const SimulationListPage = page(() => import('./workflows/simulation/simulation-list-page.js'));
const SimulationEditorPage = page(() => import('./workflows/simulation/simulation-editor-page.js'));
const SimulationPage = page(() => import('./workflows/simulation/simulation-page.js'));

function RouteError() {
  return <ErrorNotice error={useRouteError()} />;
}

/**
 * Hand-written workflow screens take their menu's path; every other menu page falls through to the
 * metadata-driven resource page. Access is decided by the layout from `/api/menus/my`.
 */
const routes: RouteObject[] = [
  {
    path: '/login',
    element: (
      <Suspense fallback={<Loading />}>
        <LoginPage />
      </Suspense>
    ),
    errorElement: <RouteError /> },
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'settle', element: <SettleListPage /> },
      { path: 'settle/explain/:settleId', element: <ExplainPage /> },
      { path: 'settle/batch', element: <BatchMonitorPage /> },
      { path: 'kpi/:view/*', element: <KpiPage /> },
      { path: 'receive/data/*', element: <ReceivePage /> },
      { path: 'payments/statements/*', element: <StatementsPage /> },
      { path: 'payments', element: <PaymentsPage /> },
      { path: 'ledger/exception/*', element: <ExceptionPage /> },
      { path: 'system/approvals', element: <ApprovalsPage /> },
      { path: 'org/tree', element: <OrgTreePage /> },
      { path: 'org/agents/:agentId', element: <AgentDetailPage /> },
      { path: 'rules/commission', element: <RulePage /> },
      { path: 'rules/payout', element: <RulePage /> },
      { path: 'rules/override', element: <RulePage /> },
      { path: 'rules/chargeback', element: <RulePage /> },
      { path: 'rules/simulations', element: <SimulationListPage /> },
      { path: 'rules/simulations/new', element: <SimulationEditorPage /> },
      { path: 'rules/simulations/:simId', element: <SimulationPage /> },
      { path: 'rules/simulations/:simId/edit', element: <SimulationEditorPage /> },
      { path: 'receive/mapping', element: <ReceiveMappingPage /> },
      { path: 'receive/mapping/wizard', element: <MappingWizardPage /> },
      { path: 'system/roles', element: <RolesPage /> },
      { path: 'system/users', element: <UsersPage /> },
      { path: 'system/config', element: <ConfigPage /> },
      { path: 'system/roles/:roleId/permissions', element: <PermissionMatrixPage /> },
      // The agent portal (AGENT-only users; the layout refuses these to everyone else).
      { path: 'my/settle/:settleId', element: <MyExplainPage /> },
      { path: 'my/disputes', element: <MyDisputesPage /> },
      { path: 'my/statements', element: <MyStatementsPage /> },
      { path: 'my/withdraw', element: <MyWithdrawPage /> },
      { path: '*', element: <ResourcePage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

/** Loads the code of the page at `pathname` (a page of the layout; the login page loads under its own Suspense). */
export function preloadPage(pathname: string): Promise<void> {
  const leaf = matchRoutes(routes, pathname)?.at(-1)?.route.element as ReactElement | undefined;
  const type = leaf?.type as Partial<Page> | undefined;
  return type?.preload ? type.preload() : Promise.resolve();
}

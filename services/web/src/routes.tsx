import { lazy, Suspense } from 'react';
import { createBrowserRouter, useRouteError } from 'react-router';
import { ErrorNotice } from './resources/error-notice.js';
import AppLayout, { Loading } from './shell/app-layout.js';

const LoginPage = lazy(() => import('./auth/login-page.js'));
const HomePage = lazy(() => import('./pages/home-page.js'));
const ResourcePage = lazy(() => import('./resources/resource-page.js'));
const SettleListPage = lazy(() => import('./workflows/settle-list-page.js'));
const ExplainPage = lazy(() => import('./workflows/explain-page.js'));
const BatchMonitorPage = lazy(() => import('./workflows/batch-monitor-page.js'));
const KpiPage = lazy(() => import('./workflows/kpi-page.js'));
const ReceivePage = lazy(() => import('./workflows/receive-page.js'));
const PaymentsPage = lazy(() => import('./workflows/payments-page.js'));
const StatementsPage = lazy(() => import('./workflows/statements-page.js'));
const ApprovalsPage = lazy(() => import('./workflows/approvals-page.js'));
const OrgTreePage = lazy(() => import('./workflows/org/org-tree-page.js'));
const AgentDetailPage = lazy(() => import('./workflows/org/agent-detail-page.js'));
const RulePage = lazy(() => import('./workflows/rules/rule-page.js'));
const ReceiveMappingPage = lazy(() => import('./workflows/intake/receive-mapping-page.js'));
const MappingWizardPage = lazy(() => import('./workflows/intake/mapping-wizard-page.js'));
const RolesPage = lazy(() => import('./workflows/roles/roles-page.js'));
const PermissionMatrixPage = lazy(() => import('./workflows/roles/permission-matrix-page.js'));
const UsersPage = lazy(() => import('./workflows/users/users-page.js'));
const ConfigPage = lazy(() => import('./workflows/config/config-page.js'));
const MyExplainPage = lazy(() => import('./workflows/portal/my-explain-page.js'));
const MyDisputesPage = lazy(() => import('./workflows/portal/my-disputes-page.js'));
const MyStatementsPage = lazy(() => import('./workflows/portal/my-statements-page.js'));
const MyWithdrawPage = lazy(() => import('./workflows/portal/my-withdraw-page.js'));
const SimulationListPage = lazy(() => import('./workflows/simulation/simulation-list-page.js'));
const SimulationEditorPage = lazy(() => import('./workflows/simulation/simulation-editor-page.js'));
const SimulationPage = lazy(() => import('./workflows/simulation/simulation-page.js'));

function RouteError() {
  return <ErrorNotice error={useRouteError()} />;
}

/**
 * Hand-written workflow screens take their menu's path; every other menu page falls through to the
 * metadata-driven resource page. Access is decided by the layout from `/api/menus/my`.
 */
export const router = createBrowserRouter([
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
]);

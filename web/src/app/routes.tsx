import { Box, Flex } from '@mantine/core';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Navigate, type RouteObject, useParams, useSearchParams } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import type { RelationTabsSlot } from '../features/masterdata/components/relation-slot';
import type { Permission } from '../lib/ability';
import type { TableRouteKind } from './guards/access';
import { GuestOnly } from './guards/guest-only';
import { FacilityTeamRedirect } from './guards/home-redirect';
import { RequireAuth } from './guards/require-auth';
import { RequirePermission, RequireTablePermission } from './guards/require-permission';
import { FullLayout } from './layouts/full-layout';
import { RootShell } from './layouts/root-shell';
import { importWithTimeout } from '../lib/lazy-import';
import { useSession } from '../lib/use-session';
import { COMING_SOON_HANDLE, namedScreen, page, tableScreen } from './lazy-route';
import { ROUTE_PERMISSIONS } from './menu';
import { RouteErrorPage } from './pages/route-error-page';

/** An unknown path: the 404 page, inside the app's layout for a logged-in user. */
function UnknownPath() {
  const { tokens } = useSession();
  return <Navigate to={tokens ? '/app/error-404' : '/error-404'} replace />;
}

/**
 * An old address of a screen that now lives at `to`: links and bookmarks
 * (filters and sort in the query string) lead there.
 */
function MovedTo({ to }: { to: string }) {
  const [search] = useSearchParams();
  const query = search.toString();
  return <Navigate to={query ? `${to}?${query}` : to} replace />;
}

/** A route that needs `permissions`, showing the placeholder named by `screenKey`. */
function gated(path: string, permissions: Permission[], screenKey: string): RouteObject {
  return {
    path,
    element: <RequirePermission permissions={permissions} />,
    children: [{ index: true, ...namedScreen(screenKey) }],
  };
}

/** A route that needs `permissions`, showing the lazily loaded `screen`. */
function guardedPage(path: string, permissions: Permission[], screen: ReturnType<typeof page>): RouteObject {
  return { path, element: <RequirePermission permissions={permissions} />, children: [{ index: true, ...screen }] };
}

/** The contract lists of the menu (features/tables/components/contract-lists). */
const contractLists = () => import('../features/tables/components/contract-lists');
const deadlineListPage = page(() => contractLists().then((m) => ({ default: m.DeadlineListPage })));
const statementDeadlinesPage = page(() => contractLists().then((m) => ({ default: m.StatementDeadlineListPage })));
const paymentsListPage = page(() => contractLists().then((m) => ({ default: m.PaymentsListPage })));
const contractListPage = page(() => contractLists().then((m) => ({ default: m.ContractListPage })));
/** The ticket dashboard (features/dashboard). */
const ticketDashboardPage = page(() => import('../features/dashboard/components/ticket-dashboard-page'));
const errorDashboardPage = page(() => import('../features/dashboard/components/error-dashboard-page'));
const conditionListPage = page(() => contractLists().then((m) => ({ default: m.ConditionListPage })));
/** The new-business flow: a new customer from a ticket (administrators). */
const newBusinessPage = page(() => import('../features/masterdata/components/new-business-page'));

/** A table route guarded by the action its kind needs. */
function tableRoute(
  path: string,
  kind: TableRouteKind,
  screen?: { lazy: ReturnType<typeof namedScreen>['lazy'] },
  table?: string,
): RouteObject {
  return {
    path,
    element: <RequireTablePermission kind={kind} table={table} />,
    children: [{ index: true, ...(screen ?? tableScreen(kind, table)) }],
  };
}

/** The generic table screens: each its own lazy chunk. */
const tableListPage = page(() => import('../features/tables/components/table-list-page'));
/**
 * The record page. Companies, locations, areas and contact persons have custom pages (features/masterdata)
 * with the generic relation tabs below; points of sale and contracts get the
 * administrator side panel beside the generic page. Each loads only there.
 */
const AdminSidePanel = lazy(() =>
  importWithTimeout(() => import('../features/masterdata/components/admin-side-panel')).then((m) => ({ default: m.AdminSidePanel })),
);
const SIDE_PANEL_TABLES = new Set(['pos', 'contract']);
/** A record page with the administrator side panel beside it (wide screens) or below it. */
function WithSidePanel({ table, id, children }: { table: string; id: number; children: ReactNode }) {
  return (
    <Flex direction={{ base: 'column', xl: 'row' }} gap="md" align="flex-start">
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      <Suspense fallback={null}>
        <Box w={{ base: '100%', xl: 320 }}>
          <AdminSidePanel entity={table} id={id} />
        </Box>
      </Suspense>
    </Flex>
  );
}
const tableRecordPage = {
  lazy: async () => {
    const { default: RecordPage } = await importWithTimeout(() => import('../features/tables/components/record-page'));
    return {
      Component: function TableRecordPage() {
        const { table = '', id } = useParams();
        if (!SIDE_PANEL_TABLES.has(table) || !(Number(id) > 0)) return <RecordPage />;
        return (
          <WithSidePanel table={table} id={Number(id)}>
            <RecordPage />
          </WithSidePanel>
        );
      },
    };
  },
};
/**
 * Contracts (issue 12): created and edited in steps (?edit=true opens them on
 * a saved contract); the record page shows the resiliation state beside the
 * title, the generic relation tabs and the side panel.
 */
const contractStepsPage = page(() => import('../features/contracts/components/contract-steps-page'));
const contractRecordPage = {
  lazy: async () => {
    const [{ default: RecordPage }, { default: ContractStepsPage }, { ResiliationBadge }, { contractTabs }] = await Promise.all([
      importWithTimeout(() => import('../features/tables/components/record-page')),
      importWithTimeout(() => import('../features/contracts/components/contract-steps-page')),
      importWithTimeout(() => import('../features/contracts/components/resiliation-badge')),
      importWithTimeout(() => import('../features/indexation/components/record-tabs')),
    ]);
    return {
      Component: function ContractRecordPage() {
        const { id } = useParams();
        const [search] = useSearchParams();
        if (search.get('edit') === 'true') return <ContractStepsPage />;
        return (
          <WithSidePanel table="contract" id={Number(id)}>
            <RecordPage
              table="contract"
              titleExtra={(row, def) => <ResiliationBadge row={row} def={def} />}
              extraTabs={contractTabs}
            />
          </WithSidePanel>
        );
      },
    };
  },
};
/**
 * A point of sale's page: the generic page and side panel, with its Emails
 * tab opening a mail in the mail modal (issue 16).
 */
const posRecordPage = {
  lazy: async () => {
    const [{ default: RecordPage }, { posTabs }] = await Promise.all([
      importWithTimeout(() => import('../features/tables/components/record-page')),
      importWithTimeout(() => import('../features/documents/components/pos-emails-tab')),
    ]);
    return {
      Component: function PosRecordPage() {
        const { id } = useParams();
        return (
          <WithSidePanel table="pos" id={Number(id)}>
            <RecordPage table="pos" extraTabs={posTabs} />
          </WithSidePanel>
        );
      },
    };
  },
};
/**
 * Index clauses (issue 13): a price index series has its own page (chart,
 * values, attribution, import); a recurring payment's page shows its index
 * adjustments with the decisions; the open proposals have their own list.
 */
const importPage = page(() => import('../features/imports/components/import-page'));
const importViewPage = page(() => import('../features/imports/components/import-view-page'));
const contractImportPage = page(() => import('../features/imports/components/contract-import-page'));
const documentPreviewPage = page(() => import('../features/documents/components/document-preview-page'));
const incomingMailsPage = page(() => import('../features/documents/components/incoming-mails-page'));
const signDocumentPage = page(() => import('../features/documents/components/sign-document-page'));
const priceIndexPage = page(() => import('../features/indexation/components/price-index-page'));
const proposalsPage = page(() => import('../features/indexation/components/proposals-page'));
const paymentRecordPage = {
  lazy: async () => {
    const [{ default: RecordPage }, { paymentTabs }] = await Promise.all([
      importWithTimeout(() => import('../features/tables/components/record-page')),
      importWithTimeout(() => import('../features/indexation/components/record-tabs')),
    ]);
    return { Component: () => <RecordPage table="recurringpayment" extraTabs={paymentTabs} /> };
  },
};

/**
 * Invoice review (issue 14): the invoice page (the generic form with
 * ?edit=true), the contradiction package screens, the position import of
 * an invoice and the savings.
 */
const invoiceRecordPage = {
  lazy: async () => {
    const [{ default: InvoicePage }, { default: RecordPage }, { RelationTabs }] = await Promise.all([
      importWithTimeout(() => import('../features/invoices/components/invoice-page')),
      importWithTimeout(() => import('../features/tables/components/record-page')),
      importWithTimeout(() => import('../features/tables/components/relation-tabs')),
    ]);
    return {
      Component: function InvoiceRecordPage() {
        const [search] = useSearchParams();
        if (search.get('edit') === 'true') return <RecordPage table="invoice" />;
        return <InvoicePage relationTabs={RelationTabs} />;
      },
    };
  },
};
const packageViewPage = {
  lazy: async () => {
    const [{ default: PackageViewPage }, { default: RecordPage }] = await Promise.all([
      importWithTimeout(() => import('../features/invoices/components/package-view-page')),
      importWithTimeout(() => import('../features/tables/components/record-page')),
    ]);
    return {
      Component: function PackageRecordPage() {
        const [search] = useSearchParams();
        if (search.get('edit') === 'true') return <RecordPage table="contradictionpackage" />;
        return <PackageViewPage />;
      },
    };
  },
};
const packageCreatePage = page(() => import('../features/invoices/components/package-create-page'));
const invoiceCreatePage = page(() => import('../features/invoices/components/invoice-create-page'));
const positionImportPage = page(() => import('../features/invoices/components/position-import-page'));
const savingsPage = page(() => import('../features/invoices/components/savings-page'));

/** A custom master-data record page with the generic relation tabs plugged in. */
function withRelationTabs(load: () => Promise<{ default: ComponentType<{ relationTabs?: RelationTabsSlot }> }>) {
  return {
    lazy: async () => {
      const [{ default: Page }, { RelationTabs }] = await Promise.all([
        importWithTimeout(load),
        importWithTimeout(() => import('../features/tables/components/relation-tabs')),
      ]);
      return { Component: () => <Page relationTabs={RelationTabs} /> };
    },
  };
}
const companyPage = withRelationTabs(() => import('../features/masterdata/components/company-page'));
const locationPage = withRelationTabs(() => import('../features/masterdata/components/location-page'));
const areaPage = withRelationTabs(() => import('../features/masterdata/components/area-page'));
const contactPage = withRelationTabs(() => import('../features/masterdata/components/contact-page'));
const tablePopupPage = page(() => import('../features/tables/components/popup-page'));

/** The custom user and team screens (issue 7); the user page gets the generic relation tabs. */
const userListPage = page(() => import('../features/users/components/user-list-page'));
const userPage = {
  lazy: async () => {
    const [{ default: UserPage }, { RelationTabs }] = await Promise.all([
      importWithTimeout(() => import('../features/users/components/user-page')),
      importWithTimeout(() => import('../features/tables/components/relation-tabs')),
    ]);
    return { Component: () => <UserPage relationTabs={RelationTabs} /> };
  },
};
const teamListPage = page(() => import('../features/users/components/team-list-page'));

/** Master data (issue 11): locations and points of sale get their own create screens. */
const locationCreatePage = page(() => import('../features/masterdata/components/location-create-page'));
/** The point-of-sale create modal over the points of sale list. */
const posCreatePage = {
  lazy: async () => {
    const [{ default: TableListPage }, { default: PosCreateModal }] = await Promise.all([
      importWithTimeout(() => import('../features/tables/components/table-list-page')),
      importWithTimeout(() => import('../features/masterdata/components/pos-create-modal')),
    ]);
    return {
      Component: () => (
        <>
          <TableListPage table="pos" />
          <PosCreateModal />
        </>
      ),
    };
  },
};
const teamPage = page(() => import('../features/users/components/team-page'));
/** The live kanban of a board and the landing on the first board (issue 15). */
const kanbanPage = page(() => import('../features/tickets/components/kanban-page'));
const boardsLanding = page(() => import('../features/tickets/components/boards-landing'));
/** The Back Office: the background jobs (issue 11). */
const backofficePage = page(() => import('../features/backoffice/components/backoffice-page'));

/**
 * Every route of the product. Pages are lazy chunks; the layout is chosen per
 * route: full for authentication, status and popup pages, otherwise the
 * user's vertical or horizontal layout.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: () => <FullPageLoader />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      {
        element: <GuestOnly />,
        children: [
          {
            element: <FullLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  { path: 'login', ...page(() => import('../features/auth/components/login-page')) },
                  { path: 'forgot-password', ...page(() => import('../features/auth/components/forgot-password-page')) },
                  { path: 'change-password', ...page(() => import('../features/auth/components/change-password-page')) },
                  {
                    path: 'auth/verification/:token',
                    ...page(() => import('../features/auth/components/verification-page')),
                  },
                  {
                    path: 'auth/reset-password/:token',
                    ...page(() => import('../features/auth/components/reset-password-page')),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        element: <FullLayout />,
        children: [
          {
            errorElement: <RouteErrorPage />,
            children: [
              { path: 'not-authorized', ...page(() => import('./pages/not-authorized-page')) },
              { path: 'comming-soon', handle: COMING_SOON_HANDLE, ...page(() => import('./pages/coming-soon-page')) },
              { path: 'error-404', ...page(() => import('./pages/not-found-page')) },
            ],
          },
        ],
      },
      {
        path: 'app',
        element: <RequireAuth />,
        children: [
          {
            // Chrome-less form for creating a related entity.
            element: <FullLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [tableRoute('table/:table/popup/:list', 'popup', tablePopupPage)],
              },
            ],
          },
          {
            // The menu layout is its own chunk: the login route does not load it.
            lazy: async () => {
              const { AppLayout } = await importWithTimeout(() => import('./layouts/app-layout'));
              return { Component: AppLayout };
            },
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  {
                    element: <FacilityTeamRedirect />,
                    children: [{ index: true, ...page(() => import('../features/dashboard/components/home-page')) }],
                  },
                  guardedPage('dashboard/ticket', ROUTE_PERMISSIONS.ticketDashboard, ticketDashboardPage),
                  guardedPage('dashboard/errors', ROUTE_PERMISSIONS.errorDashboard, errorDashboardPage),
                  tableRoute('table/custom/contracdictionpackage/view/:id', 'view', packageViewPage, 'contradictionpackage'),
                  tableRoute('table/custom/contracdictionpackage/create', 'create', packageCreatePage, 'contradictionpackage'),
                  tableRoute('table/contradictionpackage/view/:id', 'view', packageViewPage, 'contradictionpackage'),
                  tableRoute('table/contradictionpackage/create', 'create', packageCreatePage, 'contradictionpackage'),
                  tableRoute('table/invoice/view/:id', 'view', invoiceRecordPage, 'invoice'),
                  tableRoute('table/invoice/create', 'create', invoiceCreatePage, 'invoice'),
                  tableRoute('table/user', 'list', userListPage, 'user'),
                  tableRoute('table/user/create', 'create', userListPage, 'user'),
                  tableRoute('table/user/view/:id', 'view', userPage, 'user'),
                  tableRoute('table/team', 'list', teamListPage, 'team'),
                  tableRoute('table/team/create', 'create', teamPage, 'team'),
                  tableRoute('table/team/view/:id', 'view', teamPage, 'team'),
                  tableRoute('table/location/create', 'create', locationCreatePage, 'location'),
                  tableRoute('table/pos/create', 'create', posCreatePage, 'pos'),
                  tableRoute('table/pos/view/:id', 'view', posRecordPage, 'pos'),
                  tableRoute('table/company/create', 'create', companyPage, 'company'),
                  tableRoute('table/company/view/:id', 'view', companyPage, 'company'),
                  tableRoute('table/location/view/:id', 'view', locationPage, 'location'),
                  tableRoute('table/area/create', 'create', areaPage, 'area'),
                  tableRoute('table/area/view/:id', 'view', areaPage, 'area'),
                  tableRoute('table/contactperson/create', 'create', contactPage, 'contactperson'),
                  tableRoute('table/contactperson/view/:id', 'view', contactPage, 'contactperson'),
                  tableRoute('table/contract', 'list', contractListPage, 'contract'),
                  tableRoute('table/contract/create', 'create', contractStepsPage, 'contract'),
                  tableRoute('table/contract/view/:id', 'view', contractRecordPage, 'contract'),
                  tableRoute('table/priceindex/view/:id', 'view', priceIndexPage, 'priceindex'),
                  tableRoute('table/recurringpayment/view/:id', 'view', paymentRecordPage, 'recurringpayment'),
                  // The generic list of recurring payments is the payments list (one screen for those rows).
                  { path: 'table/recurringpayment', element: <MovedTo to="/app/payments-list" /> },
                  tableRoute('table/:table', 'list', tableListPage),
                  tableRoute('table/:table/view/:id', 'view', tableRecordPage),
                  tableRoute('table/:table/create', 'create', tableRecordPage),
                  tableRoute('table/board/kanban', 'kanban', boardsLanding, 'board'),
                  tableRoute('table/board/:id/kanban', 'kanban', kanbanPage, 'board'),
                  tableRoute('table/board/:id/kanbanview', 'kanban', kanbanPage, 'board'),
                  tableRoute('table/:table/:id/kanban', 'kanban'),
                  tableRoute('table/:table/:id/kanbanview', 'kanban'),
                  tableRoute('table/:name/importview', 'import', importViewPage),
                  tableRoute('table/:table/import/:invoice', 'import', positionImportPage),
                  gated('preview/document', ROUTE_PERMISSIONS.documentPreview, 'screen.document_preview'),
                  guardedPage('preview/document/:document_id/:name', ROUTE_PERMISSIONS.documentPreview, documentPreviewPage),
                  guardedPage('ticket/:id/customer', ROUTE_PERMISSIONS.newBusiness, newBusinessPage),
                  guardedPage('payments-list', ROUTE_PERMISSIONS.paymentsList, paymentsListPage),
                  guardedPage('condition-list', ROUTE_PERMISSIONS.conditionList, conditionListPage),
                  guardedPage('deadline-list', ROUTE_PERMISSIONS.deadlineList, deadlineListPage),
                  guardedPage('index-adjustments', ROUTE_PERMISSIONS.indexProposals, proposalsPage),
                  {
                    path: 'backoffice',
                    element: <RequirePermission permissions={ROUTE_PERMISSIONS.backoffice} />,
                    children: [{ index: true, ...backofficePage }],
                  },
                  guardedPage('import', ROUTE_PERMISSIONS.import, importPage),
                  guardedPage('invoice-savings', ROUTE_PERMISSIONS.invoiceSavings, savingsPage),
                  guardedPage('statement-deadlines', ROUTE_PERMISSIONS.statementDeadlines, statementDeadlinesPage),
                  guardedPage('import-contract', ROUTE_PERMISSIONS.import, contractImportPage),
                  guardedPage('incoming-mails', ROUTE_PERMISSIONS.incomingMails, incomingMailsPage),
                  guardedPage('classification-summary', ROUTE_PERMISSIONS.incomingMails, incomingMailsPage),
                  guardedPage('sign-document/:id/ticket/:ticket_id', ROUTE_PERMISSIONS.signDocument, signDocumentPage),
                  { path: 'menu', ...page(() => import('./pages/menu-page')) },
                  {
                    path: 'master-data',
                    element: <RequirePermission permissions={ROUTE_PERMISSIONS.masterData} />,
                    children: [{ index: true, ...page(() => import('./pages/master-data-page')) }],
                  },
                  { path: ':table/profile', ...page(() => import('../features/profile/components/profile-page')) },
                  // The status pages of logged-in users keep the app's menu.
                  { path: 'not-authorized', ...page(() => import('./pages/not-authorized-page')) },
                  { path: 'error-404', ...page(() => import('./pages/not-found-page')) },
                  { path: '*', element: <Navigate to="/app/error-404" replace /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <UnknownPath /> },
    ],
  },
];

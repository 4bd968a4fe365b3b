import {
  type Icon,
  IconBriefcase,
  IconBuildingStore,
  IconCash,
  IconDatabase,
  IconFileImport,
  IconFileInvoice,
  IconLayoutDashboard,
  IconSettings,
  IconTicket,
  IconTool,
  IconBuildingWarehouse,
  IconBuildingCommunity,
} from '@tabler/icons-react';
import type { AppAbility, Permission } from '../lib/ability';
import { canAll } from '../lib/ability';

/** One link of the menu. */
export interface MenuEntry {
  id: string;
  /** Translation key of the label. */
  labelKey: string;
  /** Where the entry leads. */
  to: string;
  /** Everything the user needs for the entry to show (besides the section's). */
  requires: Permission[];
  /** If set, the entry shows only when the user has at least one of these too. */
  anyOf?: Permission[];
  /** A second way to a screen another section leads to: shown only when that one is not. */
  alias?: boolean;
}

/** A group of menu entries (a collapsible block in the side menu, a drop-down on top). */
export interface MenuSection {
  id: string;
  labelKey: string;
  icon: Icon;
  /** Needed for every entry of the section (the menu subject), if shared. */
  requires: Permission[];
  entries: MenuEntry[];
}

const menu = (name: string, action: Permission['action'] = 'read'): Permission => ({
  action,
  subject: `menu_${name}`,
});

/** A table list entry: /app/table/<table>, needs `list` on the table. */
const table = (name: string, labelKey = `table.${name}`): MenuEntry => ({
  id: name,
  labelKey,
  to: `/app/table/${name}`,
  requires: [{ action: 'list', subject: name }],
});

/** Requirements of routes that are not table routes; the router and the menu share them. */
export const ROUTE_PERMISSIONS = {
  ticketDashboard: [menu('ticket_dashboard')],
  errorDashboard: [menu('error_dashboard')],
  incomingMails: [menu('incoming_mails')],
  newBusiness: [menu('new_business', 'create')],
  // Each contract list needs the list right on its own table.
  paymentsList: [menu('contract'), { action: 'list', subject: 'recurringpayment' }],
  // The conditions are the contracts' criteria tabs across contracts: the server also asks for
  // what that tab needs (read on contract, list on the tab; decision 0012).
  conditionList: [
    menu('contract'),
    { action: 'list', subject: 'criteria' },
    { action: 'read', subject: 'contract' },
    { action: 'list', subject: 'contract_criteria_rel' },
  ],
  deadlineList: [menu('contract'), { action: 'list', subject: 'contractaction' }],
  statementDeadlines: [menu('invoice'), { action: 'list', subject: 'invoice' }],
  indexProposals: [menu('contract'), { action: 'list', subject: 'indexadjustment' }],
  backoffice: [menu('backoffice')],
  import: [menu('import')],
  masterData: [menu('master_data')],
  documentPreview: [{ action: 'read', subject: 'document' }],
  // Signing writes the signed copy as a new document (POST /documents/{id}/sign).
  signDocument: [{ action: 'create', subject: 'document' }],
  // GET /invoices/savings reads the points and the inspection results.
  invoiceSavings: [
    menu('invoice'),
    { action: 'read', subject: 'contradictionpoint' },
    { action: 'read', subject: 'inspectionresult' },
  ],
} satisfies Record<string, Permission[]>;

/**
 * The menu's screens that are not built yet, by the path their entry leads
 * to: their routes show the "Coming soon" page, and the menu marks them
 * ("Soon") so nobody clicks in vain. When a screen lands, delete its line
 * (a test checks this list against the routes).
 */
export const COMING_SOON: readonly string[] = [];

/** Whether the entry leads to a screen that is still to come. */
export function isComingSoon(entry: Pick<MenuEntry, 'to'>): boolean {
  return COMING_SOON.includes(entry.to);
}

/** Lookup tables of the master-data menu. */
export const MASTER_DATA_TABLES = [
  'sachkonto',
  'unit',
  'choice',
  'areatype',
  'contracttype',
  'documentcontracttype',
  'product',
  'criteriatype',
  'locationtype',
  'maturitytype',
  'usagetype',
  'serviceobjecttype',
  'recurringpaymenttype',
  'partnertype',
  'country',
  'currency',
  'language',
  'city',
  'address',
  'contacttitle',
  'contactsalutation',
  'tag',
  'priority',
  'defaultvalue',
  'documenttype',
  'costtype',
  'claimtype',
  'rating',
  'resultcategorization',
  'savingtype',
  'invoicevaluetype',
  'invoicecriteria',
  'textmodule',
  'texttemplate',
  'criteria',
  'function',
] as const;

/**
 * The application menu as data. An entry shows when the user can `read` its
 * menu subject (`create` for new business) and, for table entries, `list` the
 * table; a section shows when at least one of its entries does.
 */
export const MENU: MenuSection[] = [
  {
    id: 'dashboards',
    labelKey: 'menu.dashboards',
    icon: IconLayoutDashboard,
    requires: [],
    entries: [
      { id: 'dashboard', labelKey: 'menu.dashboard', to: '/app', requires: [menu('dashboard')] },
      {
        id: 'ticket_dashboard',
        labelKey: 'menu.ticket_dashboard',
        to: '/app/dashboard/ticket',
        requires: ROUTE_PERMISSIONS.ticketDashboard,
      },
      {
        id: 'error_dashboard',
        labelKey: 'menu.error_dashboard',
        to: '/app/dashboard/errors',
        requires: ROUTE_PERMISSIONS.errorDashboard,
      },
    ],
  },
  {
    id: 'tickets',
    labelKey: 'menu.tickets_section',
    icon: IconTicket,
    requires: [],
    entries: [
      { ...table('ticket', 'menu.tickets'), requires: [menu('tickets'), { action: 'list', subject: 'ticket' }] },
      { ...table('board', 'menu.boards'), requires: [menu('board'), { action: 'list', subject: 'board' }] },
      {
        id: 'incoming_mails',
        labelKey: 'menu.incoming_mails',
        to: '/app/incoming-mails',
        requires: ROUTE_PERMISSIONS.incomingMails,
      },
      {
        id: 'new_business',
        labelKey: 'menu.new_business',
        to: '/app/ticket/new/customer',
        requires: ROUTE_PERMISSIONS.newBusiness,
      },
    ],
  },
  {
    id: 'facility',
    labelKey: 'menu.facility',
    icon: IconTool,
    requires: [menu('facility')],
    entries: [
      { ...table('ticket', 'menu.facility_tickets'), id: 'facility_tickets', alias: true },
      { ...table('serviceobject', 'menu.facility_service_objects'), id: 'facility_service_objects', alias: true },
    ],
  },
  {
    id: 'company',
    labelKey: 'menu.company',
    icon: IconBuildingStore,
    requires: [menu('company')],
    entries: [
      table('customergroup'),
      table('company'),
      table('pos'),
      table('area'),
      table('location'),
      table('partnercompany'),
      table('partnergroup'),
      table('contactperson'),
      table('bankdata'),
    ],
  },
  {
    id: 'contract',
    labelKey: 'menu.contract',
    icon: IconBriefcase,
    requires: [menu('contract')],
    entries: [
      table('contract'),
      { id: 'payments_list', labelKey: 'menu.payments_list', to: '/app/payments-list', requires: ROUTE_PERMISSIONS.paymentsList },
      {
        id: 'condition_list',
        labelKey: 'menu.condition_list',
        to: '/app/condition-list',
        requires: ROUTE_PERMISSIONS.conditionList,
      },
      { id: 'deadline_list', labelKey: 'menu.deadline_list', to: '/app/deadline-list', requires: ROUTE_PERMISSIONS.deadlineList },
      table('indexclause'),
      {
        id: 'index_proposals',
        labelKey: 'menu.index_proposals',
        to: '/app/index-adjustments',
        requires: ROUTE_PERMISSIONS.indexProposals,
      },
      table('priceindex'),
      // No generic "Recurring payments" entry: the payments list above is
      // that same table (same rights) with the contract's columns first, as
      // the deadline list has no generic twin either.
      table('specialright'),
    ],
  },
  {
    id: 'service_object',
    labelKey: 'menu.service_object',
    icon: IconBuildingWarehouse,
    requires: [menu('service_object')],
    entries: [table('serviceobject')],
  },
  {
    id: 'invoice',
    labelKey: 'menu.invoice',
    icon: IconFileInvoice,
    requires: [menu('invoice')],
    entries: [
      table('invoice'),
      { id: 'statement_deadlines', labelKey: 'menu.statement_deadlines', to: '/app/statement-deadlines', requires: ROUTE_PERMISSIONS.statementDeadlines },
      table('invoiceposition'),
      table('inspectionresult'),
      table('contradiction'),
      table('contradictionpackage'),
      table('contradictionpoint'),
      { id: 'invoice_savings', labelKey: 'menu.invoice_savings', to: '/app/invoice-savings', requires: ROUTE_PERMISSIONS.invoiceSavings },
    ],
  },
  {
    id: 'payment',
    labelKey: 'menu.payment',
    icon: IconCash,
    requires: [menu('payment')],
    entries: [table('payment')],
  },
  {
    id: 'master_data',
    labelKey: 'menu.master_data',
    icon: IconDatabase,
    requires: [menu('master_data')],
    // One entry: the master-data page lists (and searches) every lookup table.
    entries: [
      {
        id: 'master_data',
        labelKey: 'menu.master_data',
        to: '/app/master-data',
        requires: [],
        anyOf: MASTER_DATA_TABLES.map((name) => ({ action: 'list', subject: name })),
      },
    ],
  },
  {
    id: 'backoffice',
    labelKey: 'menu.backoffice',
    icon: IconBuildingCommunity,
    requires: [],
    entries: [{ id: 'backoffice', labelKey: 'menu.backoffice', to: '/app/backoffice', requires: ROUTE_PERMISSIONS.backoffice }],
  },
  {
    id: 'import',
    labelKey: 'menu.import',
    icon: IconFileImport,
    requires: [menu('import')],
    entries: [
      { id: 'import', labelKey: 'menu.import_xlsx', to: '/app/import', requires: [] },
      { id: 'import_contract', labelKey: 'menu.import_contract', to: '/app/import-contract', requires: [] },
    ],
  },
  {
    id: 'administration',
    labelKey: 'menu.administration',
    icon: IconSettings,
    requires: [menu('administration')],
    entries: [
      table('user'),
      table('role'),
      table('team'),
      table('usertype'),
      table('tablegroup'),
      table('tablename'),
      table('crud'),
      table('access'),
      table('translation'),
      table('attribute_i18n'),
      table('trackrecord'),
      table('document'),
      table('email'),
    ],
  },
];

/** The entries of the master-data page (/app/master-data): one per lookup table. */
export const MASTER_DATA_ENTRIES: MenuEntry[] = MASTER_DATA_TABLES.map((name) => table(name));

function allowed(ability: AppAbility, entry: MenuEntry): boolean {
  return canAll(ability, entry.requires) && (!entry.anyOf || entry.anyOf.some((p) => ability.can(p.action, p.subject)));
}

/**
 * The sections and entries the ability allows, in menu order; empty sections
 * are dropped. A screen shows once: an alias entry goes when its screen has
 * an entry of its own (Facility's "My tickets" when "Tickets" shows), and
 * any later entry to the same place goes too.
 */
export function visibleMenu(ability: AppAbility, sections: readonly MenuSection[] = MENU): MenuSection[] {
  const allowedSections = sections
    .filter((section) => canAll(ability, section.requires))
    .map((section) => ({ ...section, entries: section.entries.filter((entry) => allowed(ability, entry)) }));
  const primary = new Set(allowedSections.flatMap((s) => s.entries.filter((e) => !e.alias).map((e) => e.to)));
  const out: MenuSection[] = [];
  const seen = new Set<string>();
  for (const section of allowedSections) {
    const entries = section.entries.filter((entry) => !(entry.alias && primary.has(entry.to)) && !seen.has(entry.to));
    for (const entry of entries) seen.add(entry.to);
    if (entries.length > 0) out.push({ ...section, entries });
  }
  return out;
}

/** The master-data screens the ability allows (the master-data page's tiles). */
export function visibleMasterData(ability: AppAbility): MenuEntry[] {
  if (!canAll(ability, ROUTE_PERMISSIONS.masterData)) return [];
  return MASTER_DATA_ENTRIES.filter((entry) => allowed(ability, entry));
}

/** One screen the menu search finds: the entry and the translation key of its section. */
export interface MenuSearchEntry {
  entry: MenuEntry;
  sectionKey: string;
}

/** Every screen the menu search may find: the visible menu entries and the master-data screens. */
export function searchableScreens(ability: AppAbility): MenuSearchEntry[] {
  const out: MenuSearchEntry[] = [];
  const seen = new Set<string>();
  const add = (entry: MenuEntry, sectionKey: string) => {
    if (seen.has(entry.to)) return;
    seen.add(entry.to);
    out.push({ entry, sectionKey });
  };
  for (const section of visibleMenu(ability)) for (const entry of section.entries) add(entry, section.labelKey);
  for (const entry of visibleMasterData(ability)) add(entry, 'menu.master_data');
  return out;
}

import { SegmentedControl, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterCondition } from '../../../lib/data-provider';
import { formatDate } from '../../../lib/dates';
import type { Row } from '../../../lib/table-definition';
import { useLightThresholds } from '../api/get-light-thresholds';
import { lightColumn } from './light-column';
import TableListPage, { type ListVariant } from './table-list-page';
import type { ListState } from '../../../lib/list-state';
import {
  activeWindow,
  DEFAULT_THRESHOLDS,
  EFFECTIVE_FIELD,
  EXPIRED_FIELD,
  NOTICE_FIELD,
  NOTICE_WINDOWS,
  OVERDUE_DEADLINE,
  type QuickWindow,
  STATUS_FIELD,
  withWindow,
} from './traffic-light';

/** The contract lists of the menu: contracts, and the deadlines, recurring payments and conditions of all the caller's contracts. */

/** The contract's point of sale, read through the contract by the server (a RefOf field of contractaction). */
const POS_FIELD = 'contract_pos_name';

const DEADLINE_COLUMNS = [
  NOTICE_FIELD,
  EFFECTIVE_FIELD,
  'contract_id',
  POS_FIELD,
  'contractaction_type',
  STATUS_FIELD,
  'contractaction_acting_by',
  'contractaction_responsible_user_id',
];

/**
 * Widths of the deadline list's text columns, so the contract and point of
 * sale labels are rarely cut: the light, notice date and contract fit
 * 1280 px, every column 1920 px (a longer label shows in full on hover).
 * The grid widens a column to its header in every language (headerWidth);
 * the short columns keep their type's width.
 */
const DEADLINE_WIDTHS: Record<string, number> = {
  contract_id: 400,
  [POS_FIELD]: 240,
  contractaction_type: 170,
};

/**
 * The quick windows of a deadline list on date `field`: all, what passed
 * (overdue: nobody closed it), and the next 30, 90 and 365 days.
 */
function WindowControl({
  state,
  update,
  field,
  overdueAlso = [],
}: {
  state: ListState;
  update: (patch: Partial<ListState>) => void;
  field: string;
  /** What else makes a passed date overdue on this list (OVERDUE_DEADLINE). */
  overdueAlso?: readonly FilterCondition[];
}) {
  const { t } = useTranslation();
  const now = new Date();
  const current = activeWindow(state.filters, now, field, overdueAlso);
  const windowOf = (v: string): QuickWindow | null => (v === 'all' ? null : v === 'overdue' ? 'overdue' : Number(v));
  return (
    <SegmentedControl
      aria-label={t('grid.window')}
      value={current === null ? 'all' : String(current)}
      onChange={(v) => update({ filters: withWindow(state.filters, windowOf(v), now, field, overdueAlso) })}
      data={[
        { value: 'all', label: t('grid.window_all') },
        { value: 'overdue', label: t('grid.window_overdue') },
        ...NOTICE_WINDOWS.map((d) => ({ value: String(d), label: t('grid.window_days', { count: d }) })),
      ]}
    />
  );
}

/** /app/deadline-list: every deadline of the caller's contracts, with its traffic light and quick windows. */
export function DeadlineListPage() {
  const { t } = useTranslation();
  const thresholds = useLightThresholds().data ?? DEFAULT_THRESHOLDS;
  const variant = useMemo<ListVariant>(() => {
    const today = new Date();
    return {
      title: t('menu.deadline_list'),
      defaultColumns: DEADLINE_COLUMNS,
      columnWidths: DEADLINE_WIDTHS,
      defaultSort: { field: NOTICE_FIELD, dir: 'ASC' },
      extraFields: [NOTICE_FIELD, STATUS_FIELD, EXPIRED_FIELD],
      leadColumns: [lightColumn(t, thresholds, today)],
      toolbar: (state, update) => <WindowControl state={state} update={update} field={NOTICE_FIELD} overdueAlso={OVERDUE_DEADLINE} />,
    };
  }, [t, thresholds]);
  return <TableListPage table="contractaction" variant={variant} />;
}

const OBJECTION_FIELD = 'invoice_objection_deadline';
/** Only statements with an objection deadline (their day of receipt is known). */
const STATEMENT_BASE: FilterCondition[] = [{ field: OBJECTION_FIELD, op: 'not_null' }];

const STATEMENT_COLUMNS = [
  OBJECTION_FIELD,
  'invoice_number',
  'contract_id',
  'invoice_received_date',
  'invoice_settlement_deadline',
  'invoice_billing_period_from',
  'invoice_billing_period_to',
  'company_id',
];

/**
 * /app/statement-deadlines: the service-charge statements of the caller's
 * contracts by their objection deadline (decision 0062), lit like contract
 * deadlines, with the same quick windows; only statements whose day of
 * receipt is known have one.
 */
export function StatementDeadlineListPage() {
  const { t } = useTranslation();
  const thresholds = useLightThresholds().data ?? DEFAULT_THRESHOLDS;
  const variant = useMemo<ListVariant>(() => {
    const today = new Date();
    return {
      title: t('menu.statement_deadlines'),
      defaultColumns: STATEMENT_COLUMNS,
      columnWidths: { contract_id: 360 },
      defaultSort: { field: OBJECTION_FIELD, dir: 'ASC' },
      baseFilter: STATEMENT_BASE,
      extraFields: [OBJECTION_FIELD],
      leadColumns: [lightColumn(t, thresholds, today, { date: OBJECTION_FIELD })],
      toolbar: (state, update) => <WindowControl state={state} update={update} field={OBJECTION_FIELD} />,
    };
  }, [t, thresholds]);
  return <TableListPage table="invoice" variant={variant} />;
}

const END_FIELD = 'contract_end_date';
const CURRENT_END_FIELD = 'contract_current_end_date';

/**
 * The contract's current end when it differs from the agreed end (options
 * exercised, automatic extensions made: decision 0064), as the server
 * derives it; null when the contract runs to its agreed end.
 */
export function movedEnd(row: Row): string | null {
  const current = row[CURRENT_END_FIELD];
  if (typeof current !== 'string' || current === '' || current.slice(0, 10) === String(row[END_FIELD] ?? '').slice(0, 10)) return null;
  return current;
}

/**
 * /app/table/contract: the generic contract list, whose end date column
 * shows the current end beside the agreed one where they differ.
 */
export function ContractListPage() {
  const { t, i18n } = useTranslation();
  const variant = useMemo<ListVariant>(
    () => ({
      extraFields: [END_FIELD, CURRENT_END_FIELD],
      columnRender: {
        [END_FIELD]: (row: Row, text: string) => {
          const moved = movedEnd(row);
          if (!moved) return text;
          const shown = formatDate(moved, i18n.language);
          const label = t('contracts.current_end', { date: shown });
          return (
            <span title={label}>
              {text}{' '}
              <Text span size="sm" fw={600} c="blue.8" aria-label={label}>
                → {shown}
              </Text>
            </span>
          );
        },
      },
    }),
    [t, i18n.language],
  );
  return <TableListPage table="contract" variant={variant} />;
}

const PAYMENT_COLUMNS = [
  'contract_id',
  'recurringpayment_name',
  'recurringpaymenttype_id',
  'recurringpayment_sum_per_month',
  'recurringpayment_percentage',
  'recurringpayment_begin_date',
  'recurringpayment_end_date',
  'partnercompany_id',
];

/** /app/payments-list: the recurring payments of all the caller's contracts. */
export function PaymentsListPage() {
  const { t } = useTranslation();
  const variant = useMemo<ListVariant>(() => ({ title: t('menu.payments_list'), defaultColumns: PAYMENT_COLUMNS }), [t]);
  return <TableListPage table="recurringpayment" variant={variant} />;
}

const CONDITION_COLUMNS = [
  'contract_id',
  'contract_pos_name',
  'criteria_id',
  'choice_id',
  'value',
  'valid_from',
  'valid_to',
];

/**
 * /app/condition-list: the conditions (criteria) of all the caller's contracts: the rows of the link
 * contract_criteria across contracts, read-only (decision 0012); a row opens its contract's criteria tab,
 * where conditions are edited.
 */
export function ConditionListPage() {
  const { t } = useTranslation();
  const variant = useMemo<ListVariant>(
    () => ({
      title: t('menu.condition_list'),
      defaultColumns: CONDITION_COLUMNS,
      defaultSort: { field: 'contract_id', dir: 'ASC' },
      extraFields: ['contract_id'],
      rowPath: (row: Row) => `/app/table/contract/view/${String(row.contract_id)}?tab=contract_criteria_rel`,
    }),
    [t],
  );
  return <TableListPage table="contract_criteria" variant={variant} />;
}

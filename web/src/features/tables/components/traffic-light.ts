/**
 * The deadline traffic light and the notice-date window filter of the
 * deadline list. The rules are the server's (docs/decisions/0008): only
 * active deadlines light; red when the notice date is at most `red_days`
 * away or past, yellow at most `yellow_days` away, green otherwise. The
 * thresholds come from GET /contracts/deadlines/lights.
 */
import type { FilterCondition } from '../../../lib/data-provider';

export type Light = 'red' | 'yellow' | 'green';

export interface LightThresholds {
  red_days: number;
  yellow_days: number;
}

/** The thresholds until the server has answered (the server's defaults). */
export const DEFAULT_THRESHOLDS: LightThresholds = { red_days: 30, yellow_days: 90 };

/** The entity of deadlines (a contract's deadlines tab lights them too). */
export const DEADLINE_ENTITY = 'contractaction';

/** The deadline fields the light needs. */
export const NOTICE_FIELD = 'contractaction_notice_date';
export const STATUS_FIELD = 'contractaction_status';
/** Used up (decision 0008): no option left to watch, so no light. */
export const EXPIRED_FIELD = 'contractaction_expired';
/** The end the notice is for, which the server derives with the notice date. */
export const EFFECTIVE_FIELD = 'contractaction_effective_date';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A calendar day as a UTC midnight timestamp ("2027-03-31" or the local day of a Date). */
function dayStamp(day: string | Date): number | null {
  if (day instanceof Date) return Date.UTC(day.getFullYear(), day.getMonth(), day.getDate());
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** "YYYY-MM-DD" of the local day `days` after `today`. */
export function isoDay(today: Date, days = 0): string {
  const d = new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()) + days * DAY_MS);
  return d.toISOString().slice(0, 10);
}

/** Days from today to the notice date (negative: past); null without a date. */
export function daysUntil(notice: unknown, today: Date): number | null {
  if (typeof notice !== 'string') return null;
  const n = dayStamp(notice);
  const t = dayStamp(today);
  return n === null || t === null ? null : Math.round((n - t) / DAY_MS);
}

/** The light of a deadline as of today; null when it is not active, used up (expired) or has no notice date. */
export function lightOf(
  notice: unknown,
  status: unknown,
  today: Date,
  thresholds: LightThresholds = DEFAULT_THRESHOLDS,
  expired: unknown = 0,
): Light | null {
  if (status !== 'active' || expired === 1 || expired === true) return null;
  const days = daysUntil(notice, today);
  if (days === null) return null;
  if (days <= thresholds.red_days) return 'red';
  if (days <= thresholds.yellow_days) return 'yellow';
  return 'green';
}

/** The quick windows of the deadline list, in days from today. */
export const NOTICE_WINDOWS = [30, 90, 365] as const;

/** A quick window: the days from today, or the dates that passed (overdue). */
export type QuickWindow = number | 'overdue';

/** The filter that keeps the dates of `field` (the notice date) from today to `days` ahead, or (overdue) before today. */
export function windowFilter(window: QuickWindow, today: Date, field = NOTICE_FIELD): FilterCondition {
  if (window === 'overdue') return { field, op: 'lt', value: isoDay(today) };
  return { field, op: 'between', value: [isoDay(today), isoDay(today, window)] };
}

/**
 * What else makes a passed date overdue on the contract deadline list: the
 * deadline is still active and not used up (nobody closed it), as the
 * dashboard's Overdue figure counts it.
 */
export const OVERDUE_DEADLINE: readonly FilterCondition[] = [
  { field: STATUS_FIELD, op: 'eq', value: 'active' },
  { field: EXPIRED_FIELD, op: 'eq', value: 0 },
];

// Values compared as text: a condition read back from the URL may hold "0" for 0.
const sameCondition = (a: FilterCondition, b: FilterCondition) => a.field === b.field && a.op === b.op && String(a.value) === String(b.value);

/**
 * The list's filters with the window set (null: removed). Any other
 * condition on the date gives way to the window, and the overdue window
 * brings the conditions `overdueAlso` (and takes them when it goes); the
 * rest of the filters stay, so the window combines with them and with
 * saved views.
 */
export function withWindow(
  filters: readonly FilterCondition[],
  window: QuickWindow | null,
  today: Date,
  field = NOTICE_FIELD,
  overdueAlso: readonly FilterCondition[] = [],
): FilterCondition[] {
  const wasOverdue = activeWindow(filters, today, field, overdueAlso) === 'overdue';
  const others = filters.filter((f) => f.field !== field && !(wasOverdue && overdueAlso.some((o) => sameCondition(o, f))));
  if (window === null) return others;
  const extra = window === 'overdue' ? overdueAlso.filter((o) => !others.some((f) => sameCondition(o, f))) : [];
  return [...others, ...extra, windowFilter(window, today, field)];
}

/** The quick window the filters express as of today, if any. */
export function activeWindow(
  filters: readonly FilterCondition[],
  today: Date,
  field = NOTICE_FIELD,
  overdueAlso: readonly FilterCondition[] = [],
): QuickWindow | null {
  if (filters.some((c) => c.field === field && c.op === 'lt' && c.value === isoDay(today)) && overdueAlso.every((o) => filters.some((f) => sameCondition(o, f)))) {
    return 'overdue';
  }
  const f = filters.find((c) => c.field === field && c.op === 'between');
  if (!f || !Array.isArray(f.value) || f.value[0] !== isoDay(today)) return null;
  return NOTICE_WINDOWS.find((d) => f.value && (f.value as unknown[])[1] === isoDay(today, d)) ?? null;
}

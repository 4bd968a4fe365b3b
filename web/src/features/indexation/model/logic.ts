import { ApiError } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import type { Adjustment, Schedule, ScheduleMonth } from './types';

/** The chart's points: one per month, oldest first, values as numbers. */
export function chartPoints(rows: Row[]): { month: string; value: number }[] {
  return rows
    .filter((r) => r.priceindexvalue_value !== null && r.priceindexvalue_value !== undefined && r.priceindexvalue_value !== '')
    .map((r) => ({ month: String(r.priceindexvalue_month ?? ''), value: Number(r.priceindexvalue_value) }))
    .filter((p) => p.month && Number.isFinite(p.value))
    .sort((a, b) => a.month.localeCompare(b.month));
}

/** Month/value rows newest first, with the change to the month twelve months before (percent) when known. */
export function tableRows(points: { month: string; value: number }[]): { month: string; value: number; yearChange: number | null }[] {
  const byMonth = new Map(points.map((p) => [p.month, p.value]));
  return [...points]
    .sort((a, b) => b.month.localeCompare(a.month))
    .map((p) => {
      const [y, m] = p.month.split('-');
      const before = byMonth.get(`${Number(y) - 1}-${m}`);
      return { ...p, yearChange: before ? (p.value / before - 1) * 100 : null };
    });
}

/** One page (1-based) of `rows`, and the page count. */
export function pageOf<T>(rows: T[], page: number, size: number): { rows: T[]; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((p - 1) * size, p * size), pages };
}

/** The message of a failed call: the server's reason (a 422 names the line), or null for none. */
export function failureDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (typeof error.detail === 'string' && error.detail) return error.detail;
  if (Array.isArray(error.detail) && error.detail.length > 0) return error.detail.map((d) => d.msg).join(' ');
  return null;
}

/** What kind of failure a decision met: a conflict (409: out of order, already decided) or anything else. */
export function decisionFailure(error: unknown): 'conflict' | 'other' {
  return error instanceof ApiError && error.status === 409 ? 'conflict' : 'other';
}

/** Whether an adjustment can be approved now: proposed and first open one of its payment's chain. */
export function isNextInChain(adj: Adjustment, all: Adjustment[]): boolean {
  if (adj.indexadjustment_status !== 'proposed') return false;
  return !all.some(
    (o) =>
      o.recurringpayment_id === adj.recurringpayment_id &&
      o.indexadjustment_status === 'proposed' &&
      o.indexadjustment_current_month < adj.indexadjustment_current_month,
  );
}

/** The default schedule range: January of this year to December of the next. */
export function defaultScheduleRange(today = new Date()): { from: string; to: string } {
  const y = today.getFullYear();
  return { from: `${y}-01`, to: `${y + 1}-12` };
}

/** The schedule's months grouped by year, each with the year's total from the answer. */
export function scheduleYears(s: Schedule | undefined): { year: number; total: number; months: ScheduleMonth[] }[] {
  if (!s) return [];
  const totals = new Map((s.years ?? []).map((y) => [y.year, Number(y.total)]));
  const out = new Map<number, ScheduleMonth[]>();
  for (const m of s.months ?? []) {
    const year = Number(m.month.slice(0, 4));
    out.set(year, [...(out.get(year) ?? []), m]);
  }
  return [...out.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([year, months]) => ({
      year,
      months,
      total: totals.get(year) ?? months.reduce((sum, m) => sum + Number(m.total), 0),
    }));
}

/** A money amount in the interface language (two decimals). */
export function formatMoney(value: number | string | null | undefined, lang: string): string {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '';
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
}

/** A number in the interface language with `digits` decimals at most (index values, percents). */
export function formatNumber(value: number | string | null | undefined, lang: string, digits = 2): string {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '';
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: digits }).format(n);
}

/** A month YYYY-MM as "Oct 2024" in the interface language. */
export function formatMonth(month: string, lang: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** Adjustments grouped by payment (by its label, then id), each chain in its order (current month). */
export function byPayment(rows: Adjustment[]): Adjustment[] {
  return [...rows].sort(
    (a, b) =>
      (a.recurringpayment_id__label ?? '').localeCompare(b.recurringpayment_id__label ?? '') ||
      a.recurringpayment_id - b.recurringpayment_id ||
      a.indexadjustment_current_month.localeCompare(b.indexadjustment_current_month),
  );
}

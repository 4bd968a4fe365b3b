import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  byPayment,
  chartPoints,
  decisionFailure,
  defaultScheduleRange,
  failureDetail,
  formatMoney,
  isNextInChain,
  pageOf,
  scheduleYears,
  tableRows,
} from './logic';
import type { Adjustment, Schedule } from './types';

const adj = (id: number, payment: number, ref: string, cur: string, status: Adjustment['indexadjustment_status'] = 'proposed'): Adjustment => ({
  indexadjustment_id: id,
  recurringpayment_id: payment,
  indexclause_id: 1,
  indexadjustment_reference_month: ref,
  indexadjustment_current_month: cur,
  indexadjustment_reference_value: 100,
  indexadjustment_current_value: 105,
  indexadjustment_change_points: 5,
  indexadjustment_change_percent: 5,
  indexadjustment_old_amount: 1000,
  indexadjustment_new_amount: 1050,
  indexadjustment_effective_date: `${cur}-01`,
  indexadjustment_status: status,
});

describe('index series', () => {
  it('sorts the chart points by month and drops rows without a value', () => {
    const points = chartPoints([
      { priceindexvalue_month: '2024-02', priceindexvalue_value: '117.8' },
      { priceindexvalue_month: '2024-01', priceindexvalue_value: 117.6 },
      { priceindexvalue_month: '2024-03', priceindexvalue_value: null },
    ]);
    expect(points).toEqual([
      { month: '2024-01', value: 117.6 },
      { month: '2024-02', value: 117.8 },
    ]);
  });

  it('lists the newest month first with the change to the same month a year before', () => {
    const rows = tableRows([
      { month: '2023-01', value: 100 },
      { month: '2024-01', value: 105 },
      { month: '2024-02', value: 106 },
    ]);
    expect(rows.map((r) => r.month)).toEqual(['2024-02', '2024-01', '2023-01']);
    expect(rows[1].yearChange).toBeCloseTo(5);
    expect(rows[0].yearChange).toBeNull();
  });

  it('pages 406 months by two years and clamps the page', () => {
    const rows = Array.from({ length: 406 }, (_, i) => i);
    expect(pageOf(rows, 1, 24).pages).toBe(17);
    expect(pageOf(rows, 17, 24).rows).toHaveLength(406 - 16 * 24);
    expect(pageOf(rows, 99, 24).rows[0]).toBe(16 * 24);
    expect(pageOf([], 1, 24)).toEqual({ rows: [], pages: 1 });
  });
});

describe('errors', () => {
  it('names the line of a refused import', () => {
    const error = new ApiError(422, [{ loc: ['body', 'file'], msg: 'Line 12: "abc" is not a number.', type: 'value_error' }]);
    expect(failureDetail(error)).toBe('Line 12: "abc" is not a number.');
    expect(failureDetail(new Error('x'))).toBeNull();
  });

  it('tells a conflict (out of order, already decided) from other failures', () => {
    expect(decisionFailure(new ApiError(409, 'Approve the adjustments in order.'))).toBe('conflict');
    expect(decisionFailure(new ApiError(403, 'no'))).toBe('other');
    expect(decisionFailure(new Error('x'))).toBe('other');
  });
});

describe('chains', () => {
  it("keeps each payment's chain together in its order", () => {
    const a = { ...adj(1, 7, '2022-11', '2024-06'), recurringpayment_id__label: 'B rent' };
    const b = { ...adj(2, 8, '2022-06', '2023-01'), recurringpayment_id__label: 'A rent' };
    const c = { ...adj(3, 7, '2021-01', '2022-03'), recurringpayment_id__label: 'B rent' };
    expect(byPayment([a, b, c]).map((r) => r.indexadjustment_id)).toEqual([2, 3, 1]);
  });

  it('offers only the first open proposal of a payment as next', () => {
    const rows = [adj(1, 7, '2021-01', '2022-03', 'approved'), adj(2, 7, '2022-03', '2022-11'), adj(3, 7, '2022-11', '2024-06'), adj(4, 8, '2022-06', '2023-01')];
    expect(rows.map((r) => isNextInChain(r, rows))).toEqual([false, true, false, true]);
  });
});

describe('schedule', () => {
  it('defaults to this year and the next', () => {
    expect(defaultScheduleRange(new Date(2026, 10, 23))).toEqual({ from: '2026-01', to: '2027-12' });
  });

  it('groups the months by year with the server totals', () => {
    const s: Schedule = {
      contract_id: 1,
      from: '2026-11',
      to: '2027-01',
      months: [
        { month: '2026-11', payments: [], total: 0 },
        { month: '2026-12', payments: [{ recurringpayment_id: 1, recurringpayment_name: 'Rent', due_date: '2026-12-01', amount: 1050 }], total: 1050 },
        { month: '2027-01', payments: null, total: '0' },
      ],
      years: [
        { year: 2026, total: 1050 },
        { year: 2027, total: 0 },
      ],
      total: 1050,
    };
    const years = scheduleYears(s);
    expect(years.map((y) => [y.year, y.total, y.months.length])).toEqual([
      [2026, 1050, 2],
      [2027, 0, 1],
    ]);
    expect(scheduleYears(undefined)).toEqual([]);
  });

  it('formats amounts in the interface language', () => {
    expect(formatMoney(4816.34, 'de')).toBe('4.816,34');
    expect(formatMoney(4816.3, 'en')).toBe('4,816.30');
    expect(formatMoney(null, 'en')).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { findingsByPosition, formatAmount, sumCents, truthy } from './review';

describe('findingsByPosition', () => {
  it('groups visible points by position, points on the whole invoice under 0', () => {
    const m = findingsByPosition([
      {
        points: [
          { contradictionpoint_id: 1, invoiceposition_id: 7, contradictionpoint_rule: 'not_apportionable', contradictionpoint_title: 'A', contradictionpoint_claim: 12.5 },
          { contradictionpoint_id: 2, invoiceposition_id: 7, contradictionpoint_rule: null, contradictionpoint_title: 'B', contradictionpoint_claim: null },
          { contradictionpoint_id: 3, invoiceposition_id: null, contradictionpoint_rule: 'billing_period_over_12_months', contradictionpoint_title: 'C', contradictionpoint_claim: 3 },
          { contradictionpoint_id: 4, invoiceposition_id: 8, hidden: 1, contradictionpoint_title: 'D' },
        ],
      },
    ]);
    expect(m.get(7)?.map((f) => [f.pointId, f.rule, f.claim])).toEqual([
      [1, 'not_apportionable', 12.5],
      [2, null, null],
    ]);
    expect(m.get(0)?.[0].rule).toBe('billing_period_over_12_months');
    expect(m.has(8)).toBe(false);
  });
});

describe('formatAmount', () => {
  it('formats decimal strings exactly and numbers with two places', () => {
    expect(formatAmount('41380.00', 'en')).toBe('41,380.00');
    expect(formatAmount('7170.5', 'de')).toBe('7.170,50');
    expect(formatAmount(0.1 + 0.2, 'en')).toBe('0.30');
    expect(formatAmount(null, 'en')).toBe('–');
  });
});

describe('sumCents', () => {
  it('adds money without binary floating point', () => {
    expect(sumCents(['0.10', '0.20', 0.1])).toBe('0.40');
    expect(sumCents([4120.5, '-20.25', null])).toBe('4100.25');
    expect(sumCents([])).toBe('0.00');
  });
});

describe('truthy', () => {
  it('reads the 0/1 of yes/no fields', () => {
    expect(truthy(1)).toBe(true);
    expect(truthy(0)).toBe(false);
    expect(truthy(true)).toBe(true);
    expect(truthy(null)).toBe(false);
  });
});

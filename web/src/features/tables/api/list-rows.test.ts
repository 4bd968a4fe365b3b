import { describe, expect, it } from 'vitest';
import type { ListAnswer } from '../../../lib/data-provider';
import { TOTAL_RECHECK_MS, totalRecheck } from './list-rows';

function answer(page: Partial<ListAnswer['data']>): ListAnswer {
  return { data: { data: [], current_page: 1, per_page: 50, from: 1, to: 50, has_more: true, ...page }, attributes: [] };
}

describe('totalRecheck', () => {
  it('asks again while the total is being counted again, and stops once it is exact', () => {
    expect(totalRecheck(answer({ total: 1000015, total_as_of: '2026-11-29T10:42:13Z' }))).toBe(TOTAL_RECHECK_MS);
    expect(totalRecheck(answer({ total: 1000016 }))).toBe(false);
    expect(totalRecheck(undefined)).toBe(false);
  });
});

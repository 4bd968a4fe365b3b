import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ListAnswer } from '../../../lib/data-provider';
import { listRowsQueryOptions, TOTAL_RECHECK_MS } from './list-rows';

function answer(page: Partial<ListAnswer['data']>): ListAnswer {
  return { data: { data: [], current_page: 1, per_page: 50, from: 1, to: 50, has_more: true, ...page }, attributes: [] };
}

describe('listRowsQueryOptions', () => {
  it('asks again while the total is being counted again, and stops once it is exact', () => {
    const options = listRowsQueryOptions('ticket', { perPage: 50, count: true });
    const client = new QueryClient();
    const recheck = (data: ListAnswer) => {
      client.setQueryData(options.queryKey, data);
      const query = client.getQueryCache().find({ queryKey: options.queryKey })!;
      const interval = options.refetchInterval;
      return typeof interval === 'function' ? interval(query) : interval;
    };
    expect(recheck(answer({ total: 1000015, total_as_of: '2026-11-29T10:42:13Z' }))).toBe(TOTAL_RECHECK_MS);
    expect(recheck(answer({ total: 1000016 }))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { listBody, type ListAnswer, type ListParams } from './data-provider';
import { nextContinuation, withContinuation } from './keyset-paging';

const answer = (next?: string): ListAnswer =>
  ({ data: { data: [], current_page: 1, per_page: 50, from: 1, to: 50, has_more: Boolean(next), next }, attributes: [] }) as unknown as ListAnswer;

describe('keyset paging', () => {
  const page1: ListParams = { orderBy: 'pos_name', orderDir: 'ASC', page: 1, perPage: 50, count: true, filter: [] };

  it('continues one page forward with the token of the page shown', () => {
    const c = nextContinuation('pos', page1, answer('tok'));
    const page2 = withContinuation('pos', { ...page1, page: 2 }, c);
    expect(page2.after).toBe('tok');
    expect(listBody('pos', page2).after).toBe('tok');
  });

  it('jumps by page number', () => {
    const c = nextContinuation('pos', page1, answer('tok'));
    expect(withContinuation('pos', { ...page1, page: 3 }, c).after).toBeUndefined();
    expect(withContinuation('pos', { ...page1, page: 1 }, c).after).toBeUndefined();
  });

  it('forgets the token when the list changes', () => {
    const c = nextContinuation('pos', page1, answer('tok'));
    expect(withContinuation('pos', { ...page1, page: 2, orderDir: 'DESC' }, c).after).toBeUndefined();
    expect(withContinuation('pos', { ...page1, page: 2, search: 'berlin' }, c).after).toBeUndefined();
    expect(withContinuation('contract', { ...page1, page: 2 }, c).after).toBeUndefined();
  });

  it('has nothing to continue without a token', () => {
    expect(nextContinuation('pos', page1, answer())).toBeNull();
    expect(listBody('pos', { ...page1, page: 2 }).after).toBeUndefined();
  });
});

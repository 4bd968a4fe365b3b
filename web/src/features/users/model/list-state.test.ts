import { describe, expect, it } from 'vitest';
import { decodeTeamList, decodeUserList, encodeTeamList, encodeUserList } from './list-state';

describe('the list state in the query string', () => {
  it('round-trips the user list and leaves defaults out', () => {
    const state = { page: 3, perPage: 100, keyword: 'berg', order: 'desc' as const };
    expect(encodeUserList(state).toString()).toBe('q=berg&page=3&size=100&dir=desc');
    expect(decodeUserList(encodeUserList(state))).toEqual(state);
    expect(encodeUserList(decodeUserList(new URLSearchParams())).toString()).toBe('');
    expect(decodeUserList(new URLSearchParams('page=-2&size=7&dir=up'))).toEqual({ page: 1, perPage: 50, keyword: '', order: 'asc' });
  });

  it('round-trips the team list with its company filter', () => {
    const state = { page: 2, keyword: '', order: 'asc' as const, companyId: 4 };
    expect(encodeTeamList(state).toString()).toBe('page=2&company=4');
    expect(decodeTeamList(encodeTeamList(state))).toEqual(state);
    expect(decodeTeamList(new URLSearchParams('company=x')).companyId).toBeNull();
  });
});

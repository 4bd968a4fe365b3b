import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { decodeListState, encodeListState, type ListState } from '../../../lib/list-state';

/** The list state of `table`, kept in the URL (bookmarkable, shareable). */
export function useListState(table: string): [ListState, (patch: Partial<ListState>) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => decodeListState(params, table), [params, table]);
  const update = useCallback(
    (patch: Partial<ListState>) => {
      setParams(
        (current) => {
          const next = { ...decodeListState(current, table), ...patch };
          // A new filter, search, sort or page size starts at page 1.
          if (!('page' in patch) && ('filters' in patch || 'search' in patch || 'sort' in patch || 'perPage' in patch)) next.page = 1;
          return encodeListState(next, table, current);
        },
        { replace: true },
      );
    },
    [setParams, table],
  );
  return [state, update];
}

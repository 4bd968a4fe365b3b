import type { QueryClient } from '@tanstack/react-query';

/**
 * The key prefix of the queries, in any feature, that show one record's own
 * values (the administrator side panel's facts, a contract's steps). A
 * write elsewhere that moves them (a deadline added on a contract moves its
 * next notice date) refreshes them all with invalidateRecord, without the
 * writing feature knowing who shows the record.
 */
export function recordKey(entity: string, id: string | number) {
  return ['record', entity, String(id)] as const;
}

/** Refreshes every query under recordKey(entity, id). */
export function invalidateRecord(client: QueryClient, entity: string, id: string | number): Promise<void> {
  return client.invalidateQueries({ queryKey: recordKey(entity, id) });
}

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateRecord, recordKey } from './record-keys';

describe('invalidateRecord', () => {
  it("marks every query under the record's prefix stale, and only those", async () => {
    const client = new QueryClient();
    const facts = [...recordKey('contract', 4), 'facts'];
    const steps = [...recordKey('contract', '4'), 'contracts', 'en'];
    const other = [...recordKey('contract', 5), 'facts'];
    for (const key of [facts, steps, other]) client.setQueryData(key, { x: 1 });
    await invalidateRecord(client, 'contract', 4);
    expect(client.getQueryState(facts)?.isInvalidated).toBe(true);
    expect(client.getQueryState(steps)?.isInvalidated).toBe(true);
    expect(client.getQueryState(other)?.isInvalidated).toBe(false);
  });
});

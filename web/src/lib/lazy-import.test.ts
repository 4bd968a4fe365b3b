import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, importWithTimeout, isChunkLoadError } from './lazy-import';

afterEach(() => vi.useRealTimers());

describe('importWithTimeout', () => {
  it('passes the module through', async () => {
    await expect(importWithTimeout(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });
  it('turns a failed import into a ChunkLoadError', async () => {
    const error = await importWithTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(isChunkLoadError(error)).toBe(true);
  });
  it('fails after 120 s', async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const pending = importWithTimeout(() => new Promise(() => {})).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    expect(await pending).toBeInstanceOf(ChunkLoadError);
  });
});

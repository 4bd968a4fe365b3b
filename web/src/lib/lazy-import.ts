/** Script chunks that take longer than this count as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Error of a route chunk that failed to load or timed out. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** Runs a dynamic import with the chunk time-out; failures become ChunkLoadError. */
export function importWithTimeout<T>(importer: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`Loading a part of the application took longer than ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('A part of the application could not be loaded', { cause: error }));
      },
    );
  });
}

/** True for errors of failed chunk loads, ours or the browser's. */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(message);
}

import { useEffect, useState } from 'react';

/** The state lookup waits this long after the last keystroke in a zip field (specification). */
export const ZIP_LOOKUP_DEBOUNCE_MS = 1600;

/** value, once it has not changed for delayMs. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

import type { FieldChoice } from './types';

/**
 * The mapping to send: every column with its chosen field, columns left
 * unmapped ('') are left out.
 */
export function mappingToSend(choice: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [column, field] of Object.entries(choice)) {
    if (column && field) out[column] = field;
  }
  return out;
}

/** The required fields no column is mapped to. */
export function missingRequired(fields: FieldChoice[], choice: Record<string, string>): FieldChoice[] {
  const chosen = new Set(Object.values(choice).filter(Boolean));
  return fields.filter((f) => f.required && !chosen.has(f.name));
}

/** The fields chosen for more than one column. */
export function chosenTwice(choice: Record<string, string>): string[] {
  const seen = new Map<string, number>();
  for (const field of Object.values(choice)) {
    if (field) seen.set(field, (seen.get(field) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([f]) => f);
}

/** The share (0..100) of a running commit. */
export function percentDone(progress: { done: number; total: number } | undefined): number {
  if (!progress || progress.total <= 0) return 0;
  return Math.min(100, Math.round((progress.done / progress.total) * 100));
}

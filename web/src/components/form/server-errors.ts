import { ApiError } from '../../lib/api-client';
import type { RecordFormState } from './use-record-form';

/**
 * Puts the field errors of a 422 answer on the form's fields and answers
 * the message for the form as a whole: the errors of fields the form does
 * not show, else `fixText` ("Please correct the marked fields."). Answers
 * null when error is not such an answer, so the caller handles it.
 * `aliases` renames fields the server names differently (an upload's
 * "files" is the form's file field).
 */
export function applyFieldErrors(
  error: unknown,
  form: Pick<RecordFormState, 'attributes' | 'setServerErrors'>,
  fixText: string,
  aliases: Record<string, string> = {},
): string | null {
  if (!(error instanceof ApiError) || error.status !== 422 || !Array.isArray(error.detail)) return null;
  const fields = Object.entries(error.fieldErrors()).map(([f, m]) => [aliases[f] ?? f, m] as const);
  const shown = (f: string) => form.attributes.some((a) => a.attribute === f);
  form.setServerErrors(Object.fromEntries(fields.filter(([f]) => shown(f))));
  const rest = fields.filter(([f]) => !shown(f));
  return rest.length > 0 ? rest.map(([, m]) => m).join(' ') : fixText;
}

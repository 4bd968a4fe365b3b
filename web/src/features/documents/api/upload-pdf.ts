/**
 * The one document upload of the app: POST /documents/uploadfiles with one
 * PDF per request (spec section 5: only .pdf, a single file, size rule
 * 100000 KB), the document's fields first and the file last, as the server
 * reads them. XMLHttpRequest, since fetch reports no upload progress; the
 * token is the session's, refreshed once when the server answers 401 as the
 * API client does, and the server's answer becomes an ApiError like any
 * other call's.
 */
import { uploadError, uploadWithProgress } from '../../../lib/upload';

export const UPLOAD_PATH = '/documents/uploadfiles';

/** Largest document, in KB (the specification's size rule 100000). */
export const MAX_DOCUMENT_KB = 100000;

/** The multipart form of one upload: fields (empty ones left out), then the file as "files". */
export function uploadForm(fields: Record<string, unknown>, file: File): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined && value !== '') form.append(name, String(value));
  }
  form.append('files', file, file.name);
  return form;
}

/**
 * Uploads one PDF with its document fields (and owner field: pos_id,
 * ticket_id, ...), reporting the part sent (0..1). Answers the new
 * document's id; rejects with the server's ApiError (its detail).
 */
export async function uploadPdf(fields: Record<string, unknown>, file: File, onProgress: (part: number) => void = () => undefined): Promise<number> {
  const answer = await uploadWithProgress(UPLOAD_PATH, uploadForm(fields, file), onProgress);
  const body = (answer.data && typeof answer.data === 'object' ? answer.data : {}) as { data?: { document_id: number }[] };
  if (answer.status >= 200 && answer.status < 300 && body.data?.[0]?.document_id) {
    onProgress(1);
    return body.data[0].document_id;
  }
  throw uploadError(answer);
}

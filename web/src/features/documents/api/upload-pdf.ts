/**
 * The one document upload of the app: POST /documents/uploadfiles with one
 * PDF per request (spec section 5: only .pdf, a single file, size rule
 * 100000 KB), the document's fields first and the file last, as the server
 * reads them. XMLHttpRequest, since fetch reports no upload progress; the
 * token is the session's, refreshed once when the server answers 401 as the
 * API client does, and the server's answer becomes an ApiError like any
 * other call's.
 */
import { ApiError, refreshIfStale, refreshSession, UPLOAD_TIMEOUT_MS } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n-instance';
import { session } from '../../../lib/session';

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

function post(form: FormData, token: string | null, onProgress: (part: number) => void) {
  return new Promise<{ status: number; data: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_PATH);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', i18n.resolvedLanguage ?? 'en');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = xhr.responseText;
      }
      resolve({ status: xhr.status, data });
    };
    xhr.onerror = () => reject(new ApiError(0, null, 'network_error'));
    xhr.ontimeout = () => reject(new ApiError(408, i18n.t('general.timeout'), 'client_timeout'));
    xhr.send(form);
  });
}

/**
 * Uploads one PDF with its document fields (and owner field: pos_id,
 * ticket_id, ...), reporting the part sent (0..1). Answers the new
 * document's id; rejects with the server's ApiError (its detail).
 */
export async function uploadPdf(fields: Record<string, unknown>, file: File, onProgress: (part: number) => void = () => undefined): Promise<number> {
  await refreshIfStale();
  const form = uploadForm(fields, file);
  let token = session.getAccessToken();
  let answer = await post(form, token, onProgress);
  if (answer.status === 401 && token) {
    token = await refreshSession();
    onProgress(0);
    answer = await post(form, token, onProgress);
  }
  const body = (answer.data && typeof answer.data === 'object' ? answer.data : {}) as {
    detail?: ApiError['detail'];
    code?: string;
    data?: { document_id: number }[];
  };
  if (answer.status >= 200 && answer.status < 300 && body.data?.[0]?.document_id) {
    onProgress(1);
    return body.data[0].document_id;
  }
  throw new ApiError(answer.status, body.detail ?? (typeof answer.data === 'string' && answer.data ? answer.data : null), body.code ?? null);
}

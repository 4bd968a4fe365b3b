/**
 * Multipart uploads with progress. XMLHttpRequest, since fetch reports no
 * upload progress; the token is the session's, refreshed before a stale one
 * is sent and once more when the server answers 401, as the API client does.
 */
import { ApiError, refreshIfStale, refreshSession, UPLOAD_TIMEOUT_MS } from './api-client';
import { i18n } from './i18n-instance';
import { session } from './session';

/** What the server answered: its status and its body (parsed JSON, else the text). */
export interface UploadAnswer {
  status: number;
  data: unknown;
}

function post(path: string, form: FormData, token: string | null, onProgress: (part: number) => void) {
  return new Promise<UploadAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
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

/** POSTs form to path, reporting the part sent (0..1); a 401 refreshes the session and sends it once more. */
export async function uploadWithProgress(path: string, form: FormData, onProgress: (part: number) => void): Promise<UploadAnswer> {
  await refreshIfStale();
  let token = session.getAccessToken();
  let answer = await post(path, form, token, onProgress);
  if (answer.status === 401 && token) {
    token = await refreshSession();
    onProgress(0);
    answer = await post(path, form, token, onProgress);
  }
  return answer;
}

/** The ApiError of a refused upload, from the server's detail and code. */
export function uploadError(answer: UploadAnswer): ApiError {
  const body = (answer.data && typeof answer.data === 'object' ? answer.data : {}) as { detail?: ApiError['detail']; code?: string };
  return new ApiError(answer.status, body.detail ?? (typeof answer.data === 'string' && answer.data ? answer.data : null), body.code ?? null);
}

import { i18n } from './i18n-instance';
import { isLanguage } from './language';
import { notifyError } from './notify';
import { getBrowserHash, session } from './session';

/** Default request time-out. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Time-out for file uploads. */
export const UPLOAD_TIMEOUT_MS = 600_000;

/** One field error of a 422 answer. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Error thrown for every failed call: HTTP errors, time-outs and network failures. */
/**
 * The field path of a 422 issue's `loc`, without the part of the request it
 * names first ("body", "query" or "path"): ["body", "recurringpayments", 1,
 * "recurringpayment_sum_per_month"] → ["recurringpayments", 1, ...].
 */
export function fieldPath(loc: readonly (string | number)[]): (string | number)[] {
  const [first, ...rest] = loc;
  return first === 'body' || first === 'query' || first === 'path' ? rest : [...loc];
}

export class ApiError extends Error {
  /** HTTP status; 0 for a network failure, 408 for our own time-out. */
  readonly status: number;
  /** The server's `detail`: a message, or field errors for 422. */
  readonly detail: string | ValidationIssue[] | null;
  /** The server's optional machine-readable `code`. */
  readonly code: string | null;
  /** True when the client already showed a toast for this error. */
  readonly notified: boolean;
  /** Seconds to wait before trying again (the Retry-After header of a 429 or 503), or null. */
  readonly retryAfter: number | null;

  constructor(
    status: number,
    detail: string | ValidationIssue[] | null,
    code: string | null = null,
    notified = false,
    retryAfter: number | null = null,
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.notified = notified;
    this.retryAfter = retryAfter;
  }

  /** Field errors of a 422 answer, keyed by the last part of `loc`. */
  fieldErrors(): Record<string, string> {
    if (!Array.isArray(this.detail)) return {};
    const out: Record<string, string> = {};
    for (const issue of this.detail) {
      const field = String(issue.loc[issue.loc.length - 1] ?? '');
      if (field && !out[field]) out[field] = issue.msg;
    }
    return out;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  get isTimeout(): boolean {
    return this.status === 408 && this.code === 'client_timeout';
  }
}

/** A readable message for any error, falling back to the text `general.error`. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0 || error.status === 503) return i18n.t('general.server_down');
    if (typeof error.detail === 'string' && error.detail) return error.detail;
    if (Array.isArray(error.detail) && error.detail.length > 0) return error.detail[0].msg;
  }
  return i18n.t('general.error');
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** A JSON body. */
  json?: unknown;
  /** A form body: urlencoded or multipart. */
  body?: URLSearchParams | FormData;
  /** Send the bearer token and refresh on 401 (default true). */
  auth?: boolean;
  /** Do not show the global 403/503 toasts; the caller explains errors itself. */
  silent?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Use this access token instead of the stored one (no refresh on 401). */
  token?: string;
  /** 'blob': a successful answer resolves to a DownloadedFile (file downloads). */
  responseType?: 'json' | 'blob';
}

/** A file answer (responseType 'blob'): its content and the Content-Disposition name. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/** The file name of a Content-Disposition header (filename* first, then filename). */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  if (!plain) return null;
  return (plain[2] ?? plain[1]).trim();
}

interface RawResult {
  response: Response;
  data: unknown;
}

let refreshInFlight: Promise<string> | null = null;

/** A read turned away as busy (503 with Retry-After) is tried once more if the wait is at most this long. */
const BUSY_RETRY_MAX_SECONDS = 5;

/** The current interface language for Accept-Language. */
function currentLanguage(): string {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : 'en';
}

function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || text.startsWith('{') || text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Sends one HTTP request with the language header, a token and a time-out. */
async function rawFetch(path: string, options: RequestOptions, token: string | null): Promise<RawResult> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLanguage() });
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  } else if (options.body !== undefined) {
    body = options.body;
  }
  if (token) headers.set('Authorization', `Bearer ${token}`);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  try {
    const response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    const data: unknown =
      options.responseType === 'blob' && response.ok
        ? ({
            blob: await response.blob(),
            filename: dispositionFilename(response.headers.get('content-disposition')),
          } satisfies DownloadedFile)
        : await parseBody(response);
    return { response, data };
  } catch (error) {
    if (timedOut) throw new ApiError(408, i18n.t('general.timeout'), 'client_timeout');
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, null, 'network_error');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The seconds of a Retry-After header (only the delay form; the server never sends a date). */
export function retryAfterSeconds(headers: Headers | undefined): number | null {
  const value = headers?.get('Retry-After');
  if (!value || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

function toApiError(status: number, data: unknown, notified: boolean, headers?: Headers): ApiError {
  let detail: string | ValidationIssue[] | null = null;
  let code: string | null = null;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const record = data as { detail?: unknown; code?: unknown };
    if (typeof record.detail === 'string' || Array.isArray(record.detail)) {
      detail = record.detail as string | ValidationIssue[];
    }
    if (typeof record.code === 'string') code = record.code;
  } else if (typeof data === 'string' && data.length < 500) {
    detail = data;
  }
  return new ApiError(status, detail, code, notified, retryAfterSeconds(headers));
}

/** Calls that must never trigger a refresh: the refresh itself and the login. */
function isRefreshExempt(path: string, method: string): boolean {
  return path.startsWith('/auth/refresh/') || (method === 'POST' && path.split('?')[0] === '/token');
}

/**
 * Refreshes the access token. Concurrent callers share one refresh call. When
 * the refresh fails the session is cleared (the guards then send the user to
 * /login) and the promise rejects.
 */
export function refreshSession(): Promise<string> {
  if (!refreshInFlight) {
    refreshInFlight = doRefresh().finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

async function doRefresh(): Promise<string> {
  const refreshToken = session.getRefreshToken();
  if (!refreshToken) {
    session.clear('expired');
    throw new ApiError(401, null, 'no_session');
  }
  let result: RawResult;
  try {
    result = await rawFetch(
      '/auth/refresh/token',
      {
        method: 'POST',
        json: { user_browser_hash: getBrowserHash(), user_refresh_token: refreshToken },
      },
      null,
    );
  } catch (error) {
    console.warn('Token refresh failed', error);
    session.clear('expired');
    throw error instanceof ApiError ? error : new ApiError(0, null, 'network_error');
  }
  const data = result.data as { user_token?: string; user_refresh_token?: string; expires_in?: number } | undefined;
  if (!result.response.ok || !data?.user_token || !data.user_refresh_token) {
    console.warn('Token refresh failed', result.response.status, data);
    session.clear('expired');
    throw toApiError(401, result.data, true);
  }
  session.setTokens(data.user_token, data.user_refresh_token, data.expires_in ?? null);
  return data.user_token;
}

/** Refreshes the access token when it is 20 minutes old or older. */
export async function refreshIfStale(now = Date.now()): Promise<void> {
  if (!session.needsRefresh(now)) return;
  try {
    await refreshSession();
  } catch {
    // Logged and the session cleared by refreshSession.
  }
}

/**
 * The one HTTP client of the app. Adds `Authorization: Bearer` and
 * `Accept-Language`, applies the time-out, refreshes once on 401 (requests
 * arriving during a refresh wait for it), toasts 403 and 503, and rejects with
 * an ApiError for everything else.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const useAuth = options.auth !== false;
  const exempt = isRefreshExempt(path, method) || options.token !== undefined;

  if (useAuth && !exempt && refreshInFlight) {
    // Queue behind the running refresh and go with the new token.
    await refreshInFlight.catch(() => undefined);
  }

  let token = useAuth ? (options.token ?? session.getAccessToken()) : null;
  let result = await rawFetch(path, options, token);

  if (result.response.status === 401 && useAuth && !exempt && token) {
    try {
      const current = session.getAccessToken();
      // Another request may have refreshed while this one was under way.
      token = current && current !== token ? current : await refreshSession();
    } catch {
      throw toApiError(401, result.data, true);
    }
    result = await rawFetch(path, options, token);
    if (result.response.status === 401) {
      session.clear('expired');
      throw toApiError(401, result.data, true);
    }
  }

  const busyFor = retryAfterSeconds(result.response.headers);
  if (result.response.status === 503 && method === 'GET' && busyFor !== null && busyFor <= BUSY_RETRY_MAX_SECONDS) {
    // The server is at its bound and says when to come back: a read tries
    // once more after that before anyone is told.
    await new Promise((resolve) => setTimeout(resolve, busyFor * 1000));
    result = await rawFetch(path, options, token);
  }

  const { response, data } = result;
  if (response.ok) return data as T;

  const status = response.status;
  if (!options.silent && (status === 403 || status === 503)) {
    const error = toApiError(status, data, true, response.headers);
    if (status === 403) {
      notifyError(typeof error.detail === 'string' && error.detail ? error.detail : i18n.t('general.unauthorized'));
    } else if (error.retryAfter !== null && typeof error.detail === 'string' && error.detail) {
      // Busy, not down: the server's own words ("try again in a moment").
      notifyError(error.detail);
    } else {
      notifyError(i18n.t('general.server_down'));
    }
    throw error;
  }
  throw toApiError(status, data, false, response.headers);
}

/** Shorthands for the common verbs. */
export const api = {
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'json'>): Promise<T> {
    return apiRequest<T>(path, { ...options, method: 'GET' });
  },
  post<T>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>): Promise<T> {
    return apiRequest<T>(path, { ...options, method: 'POST', json });
  },
  put<T>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>): Promise<T> {
    return apiRequest<T>(path, { ...options, method: 'PUT', json });
  },
  delete<T>(path: string, json?: unknown, options?: Omit<RequestOptions, 'method' | 'json'>): Promise<T> {
    return apiRequest<T>(path, { ...options, method: 'DELETE', json });
  },
  /** Multipart upload with the longer upload time-out. */
  upload<T>(path: string, form: FormData, options?: Omit<RequestOptions, 'method' | 'json' | 'body'>): Promise<T> {
    return apiRequest<T>(path, { timeoutMs: UPLOAD_TIMEOUT_MS, ...options, method: 'POST', body: form });
  },
};

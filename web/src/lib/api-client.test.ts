import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, json, mockFetch } from '../test/fetch-mock';

vi.mock('./notify', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn(), notifyInfo: vi.fn(), TOAST_DURATION_MS: 3000 }));

import { ApiError, api, DEFAULT_TIMEOUT_MS, refreshIfStale, UPLOAD_TIMEOUT_MS } from './api-client';
import { i18n } from './i18n-instance';
import { notifyError } from './notify';
import { getBrowserHash, session, SESSION_KEYS, TOKEN_REFRESH_AGE_SECONDS } from './session';

const USER = { user_id: 1, user_email: 'a@b.test', user_firstname: 'A', user_lastname: 'B', rules: [] };

function login(access = 'access-1', refresh = 'refresh-1', issuedAt = Date.now()) {
  session.setTokens(access, refresh, 8, issuedAt);
  session.setUser(USER);
}

beforeEach(() => {
  session.clear();
  session.takeLogoutReason();
  vi.mocked(notifyError).mockClear();
  i18n.addResourceBundle('en', 'translation', {
    'general.error': 'An error has occurred',
    'general.server_down': 'The server is unavailable',
    'general.unauthorized': 'This action is not authorized',
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('headers', () => {
  it('sends the bearer token and the interface language', async () => {
    login('tok');
    await i18n.changeLanguage('de');
    const { calls } = mockFetch(() => json(200, { ok: true }));
    await api.get('/user/');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
    expect(calls[0].headers.get('Accept-Language')).toBe('de');
    await i18n.changeLanguage('en');
  });

  it('uses 120 s by default and 600 s for uploads', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(120_000);
    expect(UPLOAD_TIMEOUT_MS).toBe(600_000);
  });

  it('times out after the default time-out', async () => {
    vi.useFakeTimers();
    login();
    mockFetch(
      (call) =>
        new Promise<Response>((_, reject) => {
          // Reject like fetch does when its signal aborts.
          void call;
          setTimeout(() => reject(new DOMException('Aborted', 'AbortError')), DEFAULT_TIMEOUT_MS + 1);
        }),
    );
    const pending = api.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS + 5);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isTimeout).toBe(true);
  });
});

describe('refresh at 20 minutes', () => {
  it('does nothing while the token is younger than 1200 s', async () => {
    const now = Date.now();
    login('a', 'r', now);
    const { calls } = mockFetch(() => json(200, {}));
    await refreshIfStale(now + (TOKEN_REFRESH_AGE_SECONDS - 1) * 1000);
    expect(calls).toHaveLength(0);
  });

  it('refreshes a token that is 1200 s old and stores the new pair', async () => {
    const now = Date.now();
    login('a', 'r', now - TOKEN_REFRESH_AGE_SECONDS * 1000);
    const { calls } = mockFetch(() => json(200, { user_token: 'a2', user_refresh_token: 'r2', expires_in: 8 }));
    await refreshIfStale(now);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/auth/refresh/token');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].body).toEqual({ user_browser_hash: getBrowserHash(), user_refresh_token: 'r' });
    expect(session.getAccessToken()).toBe('a2');
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('r2');
    expect(session.needsRefresh()).toBe(false);
  });

  it('does not refresh when logged out', async () => {
    const { calls } = mockFetch(() => json(200, {}));
    await refreshIfStale(Date.now() + 10 * 3600_000);
    expect(calls).toHaveLength(0);
  });
});

describe('401 handling', () => {
  it('refreshes once for several concurrent 401s, queues new requests, and retries all with the new token', async () => {
    login('old', 'r');
    const refreshAnswer = deferred<Response>();
    let refreshCalls = 0;
    const { calls } = mockFetch((call) => {
      if (call.url === '/auth/refresh/token') {
        refreshCalls += 1;
        return refreshAnswer.promise;
      }
      const auth = call.headers.get('Authorization');
      return auth === 'Bearer new' ? json(200, { url: call.url }) : json(401, { detail: 'expired' });
    });

    const first = [api.get<{ url: string }>('/a'), api.get<{ url: string }>('/b'), api.get<{ url: string }>('/c')];
    // Let the three 401 answers arrive and the refresh start.
    await vi.waitFor(() => expect(refreshCalls).toBe(1));
    // A request arriving during the refresh waits in the queue.
    const late = api.get<{ url: string }>('/d');
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.filter((c) => c.url === '/d')).toHaveLength(0);

    refreshAnswer.resolve(json(200, { user_token: 'new', user_refresh_token: 'r2', expires_in: 8 }));
    const answers = await Promise.all([...first, late]);
    expect(answers.map((a) => a.url)).toEqual(['/a', '/b', '/c', '/d']);
    expect(refreshCalls).toBe(1);
    expect(calls.filter((c) => c.url === '/d')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/d')[0].headers.get('Authorization')).toBe('Bearer new');
    expect(session.getRefreshToken()).toBe('r2');
  });

  it('logs out (tokens and user cleared) when the refresh fails', async () => {
    login('old', 'r');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockFetch((call) => (call.url === '/auth/refresh/token' ? json(401, { detail: 'invalid' }) : json(401, {})));
    const results = await Promise.allSettled([api.get('/a'), api.get('/b')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(session.isLoggedIn()).toBe(false);
    expect(session.getState().user).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.user)).toBeNull();
    expect(session.takeLogoutReason()).toBe('expired');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('does not refresh for a 401 of POST /token', async () => {
    const { calls } = mockFetch(() => json(401, { detail: 'no' }));
    login('a', 'r');
    await expect(api.post('/token', undefined, { auth: false })).rejects.toBeInstanceOf(ApiError);
    expect(calls.map((c) => c.url)).toEqual(['/token']);
    expect(session.isLoggedIn()).toBe(true);
  });

  it('retries with the token another request already refreshed', async () => {
    login('old', 'r');
    const slow = deferred<Response>();
    let refreshCalls = 0;
    mockFetch((call) => {
      if (call.url === '/auth/refresh/token') {
        refreshCalls += 1;
        return json(200, { user_token: 'new', user_refresh_token: 'r2' });
      }
      if (call.url === '/slow' && call.headers.get('Authorization') === 'Bearer old') return slow.promise;
      return call.headers.get('Authorization') === 'Bearer new' ? json(200, {}) : json(401, {});
    });
    const slowRequest = api.get('/slow');
    await api.get('/fast');
    slow.resolve(json(401, {}));
    await slowRequest;
    expect(refreshCalls).toBe(1);
  });
});

describe('error handling', () => {
  it('toasts the server detail of a 403 and rejects', async () => {
    login();
    mockFetch(() => json(403, { detail: 'Nicht erlaubt' }));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 403, notified: true });
    expect(notifyError).toHaveBeenCalledWith('Nicht erlaubt');
  });

  it('toasts general.unauthorized for a 403 without detail', async () => {
    login();
    mockFetch(() => json(403, {}));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 403 });
    expect(notifyError).toHaveBeenCalledWith('This action is not authorized');
  });

  it('toasts general.server_down for a 503', async () => {
    login();
    mockFetch(() => json(503, { detail: 'maintenance' }));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 503 });
    expect(notifyError).toHaveBeenCalledWith('The server is unavailable');
  });

  it('tries a read turned away as busy once more after Retry-After', async () => {
    login();
    let calls = 0;
    mockFetch(() => (++calls === 1 ? json(503, { detail: 'busy' }, { 'Retry-After': '1' }) : json(200, { ok: true })));
    vi.useFakeTimers();
    try {
      const answer = api.get<{ ok: boolean }>('/x');
      await vi.advanceTimersByTimeAsync(1000);
      await expect(answer).resolves.toEqual({ ok: true });
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toBe(2);
    expect(notifyError).not.toHaveBeenCalled();
  });

  it("shows the server's words when a write is turned away as busy", async () => {
    login();
    let calls = 0;
    mockFetch(() => {
      calls++;
      return json(503, { detail: 'The server is busy. Please try again in a moment.' }, { 'Retry-After': '2' });
    });
    await expect(api.post('/x', {})).rejects.toMatchObject({ status: 503, retryAfter: 2 });
    expect(calls).toBe(1);
    expect(notifyError).toHaveBeenCalledWith('The server is busy. Please try again in a moment.');
  });

  it('passes other errors to the caller without a toast, with 422 field errors', async () => {
    login();
    mockFetch(() => json(422, { detail: [{ loc: ['body', 'password'], msg: 'too short', type: 'value_error' }] }));
    const error = (await api.post('/x', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(422);
    expect(error.fieldErrors()).toEqual({ password: 'too short' });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('stays silent when asked to', async () => {
    login();
    mockFetch(() => json(403, { detail: 'locked', code: 'account_locked' }));
    await expect(api.post('/token', undefined, { auth: false, silent: true })).rejects.toMatchObject({
      status: 403,
      code: 'account_locked',
    });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api.get('/x', { auth: false })).rejects.toMatchObject({ status: 0 });
  });
});

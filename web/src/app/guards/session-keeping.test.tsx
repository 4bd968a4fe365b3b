import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session, SESSION_CHECK_INTERVAL_MS, TOKEN_REFRESH_AGE_SECONDS } from '../../lib/session';
import { json } from '../../test/fetch-mock';
import { makeUser, renderApp } from '../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = makeUser([{ action: 'manage', subject: 'all' }]);
const refreshAnswer = (call: { url: string }) =>
  call.url === '/auth/refresh/token' ? json(200, { user_token: 'fresh', user_refresh_token: 'r2', expires_in: 900 }) : undefined;

describe('session keeping in the app', () => {
  it('refreshes an access token that is 20 minutes old when navigating', async () => {
    session.setTokens('old', 'r1', 900, Date.now() - TOKEN_REFRESH_AGE_SECONDS * 1000);
    session.setUser(user);
    const { server } = renderApp('/app/menu', user, refreshAnswer);
    await screen.findByRole('heading', { name: 'Menu overview' });
    await waitFor(() => expect(server.calls.some((c) => c.url === '/auth/refresh/token')).toBe(true));
    expect(session.getAccessToken()).toBe('fresh');
  });

  it('leaves a younger token alone', async () => {
    session.setTokens('young', 'r1', 900, Date.now() - (TOKEN_REFRESH_AGE_SECONDS - 60) * 1000);
    session.setUser(user);
    const { server } = renderApp('/app/menu', user, refreshAnswer);
    await screen.findByRole('heading', { name: 'Menu overview' });
    expect(server.calls.some((c) => c.url === '/auth/refresh/token')).toBe(false);
  });

  it('checks every 10 minutes in the background', async () => {
    const setIntervalSpy = vi.spyOn(window, 'setInterval');
    session.setTokens('young', 'r1', 900);
    session.setUser(user);
    const { server } = renderApp('/app/menu', user, refreshAnswer);
    await screen.findByRole('heading', { name: 'Menu overview' });
    const call = setIntervalSpy.mock.calls.find(([, ms]) => ms === SESSION_CHECK_INTERVAL_MS);
    expect(call).toBeDefined();
    // Ten minutes later the token is still young: nothing happens.
    (call?.[0] as () => void)();
    expect(server.calls.some((c) => c.url === '/auth/refresh/token')).toBe(false);
    // Once it is 20 minutes old, the next check refreshes it.
    session.setTokens('young', 'r1', 900, Date.now() - TOKEN_REFRESH_AGE_SECONDS * 1000);
    (call?.[0] as () => void)();
    await waitFor(() => expect(session.getAccessToken()).toBe('fresh'));
  });

  it('logs out and goes to /login when the refresh fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    session.setTokens('old', 'r1', 900, Date.now() - TOKEN_REFRESH_AGE_SECONDS * 1000);
    session.setUser(user);
    const { router } = renderApp('/app/menu', user, (call) =>
      call.url === '/auth/refresh/token' ? json(401, { detail: 'expired' }) : undefined,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(session.isLoggedIn()).toBe(false);
    expect(localStorage.getItem('portfolio.user')).toBeNull();
  });
});

import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json } from '../../../test/fetch-mock';
import { makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  notifications.clean();
  session.clear();
  vi.unstubAllGlobals();
});

const admin = makeUser([{ action: 'manage', subject: 'all' }], { user_firstname: 'Anna' });

async function submit(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('logs in, stores the session, welcomes the user and goes home', async () => {
    const { router, server } = renderApp('/login', admin, (call) =>
      call.url === '/token'
        ? json(200, { access_token: 'acc', refresh_token: 'ref', token_type: 'bearer', expires_in: 900 })
        : undefined,
    );
    await submit('admin@demo.test', 'Demo-Password-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(await screen.findByText('Welcome back to Portfolio')).toBeInTheDocument();
    const token = server.calls.find((c) => c.url === '/token');
    expect(token?.method).toBe('POST');
    expect(token?.body).toMatchObject({ username: 'admin@demo.test', password: 'Demo-Password-1' });
    expect(typeof (token?.body as Record<string, string>).user_browser_hash).toBe('string');
    const me = server.calls.find((c) => c.url === '/user/');
    expect(me?.headers.get('Authorization')).toBe('Bearer acc');
    expect(session.getAccessToken()).toBe('acc');
    expect(session.getState().user?.user_firstname).toBe('Anna');
  });

  it('says so when the credentials are wrong', async () => {
    renderApp('/login', undefined, (call) =>
      call.url === '/token' ? json(400, { detail: 'Incorrect email or password.' }) : undefined,
    );
    await submit('admin@demo.test', 'nope');
    expect((await screen.findByText('The email address or the password is wrong.')).closest('[role="alert"]')).not.toBeNull();
    expect(session.isLoggedIn()).toBe(false);
  });

  it('says so when the account is locked', async () => {
    renderApp('/login', undefined, (call) =>
      call.url === '/token' ? json(403, { detail: 'Locked', code: 'account_locked' }) : undefined,
    );
    await submit('admin@demo.test', 'x');
    expect(await screen.findByText(/Your account is locked\./)).toBeInTheDocument();
  });

  it('counts down a wait after too many failed attempts and holds the button until it passed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp('/login', undefined, (call) =>
        call.url === '/token'
          ? new Response(JSON.stringify({ detail: 'Too many', code: 'too_many_attempts' }), {
              status: 429,
              headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
            })
          : undefined,
      );
      await submit('admin@demo.test', 'x');
      expect(await screen.findByText(/Please wait 3 seconds/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
      await vi.advanceTimersByTimeAsync(1000);
      expect(await screen.findByText(/Please wait 2 seconds/)).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2500);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled());
      expect(screen.queryByText(/Please wait/)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says so when the server is down', async () => {
    renderApp('/login', undefined, (call) => (call.url === '/token' ? json(503, {}) : undefined));
    await submit('admin@demo.test', 'x');
    expect(await screen.findByText(/The server cannot be reached right now\./)).toBeInTheDocument();
  });

  it('sends users who must change their password to /change-password with the email filled in', async () => {
    const { router } = renderApp('/login', undefined, (call) =>
      call.url === '/token' ? json(403, { detail: 'Change it', code: 'password_change_required' }) : undefined,
    );
    await submit('old@demo.test', 'x');
    await waitFor(() => expect(router.state.location.pathname).toBe('/change-password'));
    expect(await screen.findByLabelText(/Email/)).toHaveValue('old@demo.test');
  });
});

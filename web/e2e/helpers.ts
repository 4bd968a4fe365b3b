import { resolve } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-Password-1';
export const ARTIFACTS = resolve(import.meta.dirname, 'artifacts');

/** Logs in through the login form, as a person would. */
export async function logIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

/**
 * Opens `path` as `email`, logged in without the login form: the tokens come
 * from POST /token and the user record from GET /user/, stored the way the
 * login form stores them (tokens, user, this browser's id). For specs that
 * test something after the login, not the login itself (login.spec,
 * session.spec and the first-screen specs use logIn): it spares them the
 * login page and the start page on the way, seconds per test on a busy CI
 * machine.
 */
export async function openAs(page: Page, email: string, path: string, password = DEMO_PASSWORD): Promise<void> {
  const browserHash = `e2e-${crypto.randomUUID()}`;
  const token = await page.request.post('/token', { form: { username: email, password, user_browser_hash: browserHash } });
  expect(token.status(), `login of ${email}`).toBe(200);
  const tokens = (await token.json()) as { access_token: string; refresh_token: string; expires_in?: number };
  const me = await page.request.get('/user/', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  expect(me.status(), `the user record of ${email}`).toBe(200);
  const user: unknown = await me.json();
  // localStorage belongs to the origin: a small same-origin answer opens it.
  await page.goto('/readyz');
  await page.evaluate(
    ({ tokens, user, browserHash, now }) => {
      localStorage.setItem('portfolio.access_token', tokens.access_token);
      localStorage.setItem('portfolio.refresh_token', tokens.refresh_token);
      localStorage.setItem('portfolio.token_issued_at', String(now));
      if (tokens.expires_in) localStorage.setItem('portfolio.token_expires_in', String(tokens.expires_in));
      localStorage.setItem('portfolio.user', JSON.stringify(user));
      localStorage.setItem('portfolio.browser_hash', browserHash);
    },
    { tokens, user, browserHash, now: Date.now() },
  );
  await page.goto(path);
}

/** Saves a full-page screenshot to e2e/artifacts/<name>.png. */
export async function snap(page: Page, name: string): Promise<void> {
  // Let toasts and transitions settle so the picture shows the page itself.
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage: true });
}

export function mainMenu(page: Page) {
  return page.getByRole('navigation', { name: /Main menu|Hauptmenü|Menu principal/ });
}

/** One message the test SMTP server (tools/mailcatcher) received. */
export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  received_at: string;
}

/** The messages the test SMTP server at `mailUrl` received for `to`. */
export async function mailTo(request: APIRequestContext, mailUrl: string, to: string): Promise<CaughtMail[]> {
  const answer = await request.get(`${mailUrl}/messages`, { params: { to } });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as CaughtMail[];
}

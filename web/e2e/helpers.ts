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

import type { Page, Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { openAs, snap } from './helpers';

/**
 * Every role walks the workflows it owns (issue 38, docs/rights-matrix.md):
 * what the screens offer is what the server accepts. The fixture fails a
 * walk on any error answer (a 403 to an action the screen offered) and on
 * any console error; the walks also check that what a role may not do is
 * not offered. They are short on purpose: the rights of every action are
 * tested on the server (TestRightsMatrixScenarios); here the screens must
 * agree with them.
 */

const BOARD = '/app/table/board/1/kanban';
const CONTRACT = '/app/table/contract/view/1';

/**
 * Waits for the answer to a call the page makes and expects it to succeed
 * (a 401 of an expired access token is answered again after the refresh).
 */
async function succeeds(page: Page, url: RegExp, method: string, act: () => Promise<void>): Promise<Response> {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => url.test(r.url()) && r.request().method() === method && r.status() !== 401),
    act(),
  ]);
  expect(answer.status(), `${method} ${answer.url()}`).toBeLessThan(300);
  return answer;
}

async function openBoard(page: Page, email: string) {
  await openAs(page, email, BOARD);
  await expect(page.getByRole('heading', { level: 1, name: 'Facility Management' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-ticket-id]').first()).toBeVisible({ timeout: 30_000 });
}

async function openTicket(page: Page) {
  const first = page.locator('[data-ticket-id]').first();
  const id = await first.getAttribute('data-ticket-id');
  await first.click();
  const drawer = page.getByRole('dialog', { name: new RegExp(`^#${id} `) });
  await expect(drawer.getByTestId('ticket-fields')).toBeVisible();
  return drawer;
}

/** The contract's Deadlines tab. */
async function deadlinesTab(page: Page) {
  await page.getByRole('tab', { name: 'Deadlines' }).click();
  return page.locator('[data-relation="contract_deadlines_rel"]');
}

test.describe.configure({ timeout: 90_000 });

test('admin: the contract steps and the board are open to change', async ({ page }) => {
  await openAs(page, 'admin@demo.test', `${CONTRACT}?edit=true&step=payments`);
  await expect(page.getByRole('form', { name: 'Recurring payments' })).toBeVisible({ timeout: 30_000 });
  await openBoard(page, 'admin@demo.test');
  await expect(page.locator('[data-movable="true"]').first()).toBeVisible();
});

test('team_member: saves recurring payments in step 2, adds deadlines, classifies mails, moves tickets', async ({ page }) => {
  await openAs(page, 'team_member@demo.test', `${CONTRACT}?edit=true&step=payments`);
  const payments = page.getByRole('form', { name: 'Recurring payments' });
  await expect(payments).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('step-read-only')).toHaveCount(0);
  await payments.getByRole('textbox', { name: 'Remark' }).first().fill('Checked by the lease management team');
  await succeeds(page, /\/contracts\/step\/2$/, 'PUT', () => payments.getByRole('button', { name: 'Save', exact: true }).click());
  await snap(page, 'roles-team-member-step2');

  await page.goto(CONTRACT);
  const deadlines = await deadlinesTab(page);
  await expect(deadlines.getByRole('button', { name: 'Create' })).toBeVisible();

  await page.goto('/app/incoming-mails');
  // Whichever mail is still to process (earlier specs classify some).
  await page.getByRole('table', { name: 'Incoming emails' }).getByRole('row').first().click();
  await expect(page.getByRole('button', { name: 'Confirm' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create a ticket' })).toBeVisible();
  await snap(page, 'roles-team-member-mails');

  await openBoard(page, 'team_member@demo.test');
  await expect(page.locator('[data-movable="true"]').first()).toBeVisible();
  const drawer = await openTicket(page);
  await expect(drawer.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(drawer.getByTestId('ticket-upload')).toBeVisible();
  await snap(page, 'roles-team-member-drawer');
});

test('team_lead: changes a ticket in the drawer, may upload and sign', async ({ page }) => {
  await openBoard(page, 'team_lead@demo.test');
  const drawer = await openTicket(page);
  const progress = drawer.getByRole('textbox', { name: 'Progress' });
  const before = await progress.inputValue();
  await progress.fill(before.startsWith('10') ? '20' : '10');
  await succeeds(page, /\/tickets\/update$/, 'PUT', () => drawer.getByRole('button', { name: 'Save' }).click());
  await expect(drawer.getByTestId('ticket-upload')).toBeVisible();
});

test('fm: works the facility board: moves, edits, uploads', async ({ page }) => {
  await openBoard(page, 'fm@demo.test');
  await expect(page.locator('[data-movable="true"]').first()).toBeVisible();
  const drawer = await openTicket(page);
  await expect(drawer.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(drawer.getByTestId('ticket-upload')).toBeVisible();
  await snap(page, 'roles-fm-drawer');
});

test('lead: reads the contract, its steps and its deadlines without offers to change them', async ({ page }) => {
  await openAs(page, 'lead@demo.test', CONTRACT);
  await expect(page.getByTestId('contract-resiliation')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  const deadlines = await deadlinesTab(page);
  await expect(deadlines.getByRole('button', { name: 'Create' })).toHaveCount(0);
  // The steps are the contract's edit mode, which the route refuses without update.
  await page.goto(`${CONTRACT}?edit=true&step=payments`);
  await expect(page).toHaveURL(/\/not-authorized$/, { timeout: 30_000 });
  await expect(page.getByRole('form', { name: 'Recurring payments' })).toHaveCount(0);

  // The board (the lead's through MVM extern, decision 0027) is read-only:
  // the cards open but do not drag, the drawer has no Save and no upload.
  await openBoard(page, 'lead@demo.test');
  await expect(page.locator('[data-movable="true"]')).toHaveCount(0);
  await expect(page.locator('[data-movable="false"]').first()).toBeVisible();
  const drawer = await openTicket(page);
  await expect(drawer.getByRole('textbox', { name: /^Title/ })).toBeDisabled();
  await expect(drawer.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(drawer.getByTestId('ticket-upload')).toHaveCount(0);
  await snap(page, 'roles-lead-drawer');
});

test('store_manager: reads the points of sale without offers to change them', async ({ page }) => {
  await openAs(page, 'store_manager@demo.test', '/app/table/pos');
  await expect(page.getByRole('grid').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);
});

test('partner: opens the start page without errors', async ({ page }) => {
  await openAs(page, 'partner@demo.test', '/app');
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible({ timeout: 30_000 });
});

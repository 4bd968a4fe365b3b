import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { DEMO_PASSWORD, openAs, snap } from './helpers';

const MEMBER = 'team_member@demo.test';

/** The first rows of a list as the team member reads it. */
async function firstRows<T>(request: APIRequestContext, entity: string, orderBy: string, columns: string[], n: number): Promise<T[]> {
  const login = await request.post('/token', { form: { username: MEMBER, password: DEMO_PASSWORD, user_browser_hash: 'e2e-record-search' } });
  expect(login.status()).toBe(200);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const list = await request.post(`/api/?${entity}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'read-rich', entity, order_by: orderBy, per_page: n, current_page: 1, columns },
  });
  expect(list.status()).toBe(200);
  return ((await list.json()) as { data: { data: T[] } }).data.data;
}

/** A point of sale of the demo as the list names it: the third by name. */
async function somePointOfSale(request: APIRequestContext): Promise<{ id: number; name: string }> {
  const rows = await firstRows<{ pos_id: number; pos_name: string }>(request, 'pos', 'pos_name', ['pos_name'], 3);
  return { id: rows[2].pos_id, name: rows[2].pos_name };
}

/** The amount a figure shows ("1.568,30" in German). */
async function amount(figure: Locator): Promise<number> {
  const text = (await figure.locator('p').first().textContent()) ?? '';
  return Number(text.replace(/\./g, '').replace(',', '.').replace(/[^\d.]/g, ''));
}

/** The position of the option named `name` among the search's options. */
async function optionIndex(page: Page, name: string): Promise<number> {
  const names = await page.getByRole('option').allTextContents();
  const i = names.findIndex((n) => n.startsWith(name));
  expect(i, `"${name}" among ${JSON.stringify(names)}`).toBeGreaterThanOrEqual(0);
  return i;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('portfolio.language', 'de'));
});

test('Strg K finds a point of sale by its name; the keyboard picks it and opens its page (German)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const pos = await somePointOfSale(request);
  // The place in the name, without the brand every demo point of sale shares.
  const word = pos.name.split(' ').slice(1).join(' ');
  await openAs(page, MEMBER, '/app');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });

  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Name der Ansicht oder eines Datensatzes/ });
  await expect(search).toBeFocused();
  await search.pressSequentially(word, { delay: 20 });
  const group = page.getByRole('group', { name: 'Filialen' });
  await expect(group.getByRole('option', { name: new RegExp(`^${pos.name}`) })).toBeVisible();
  // Its contracts and tickets come too, under their own names.
  await expect(page.getByRole('group', { name: 'Verträge' })).toBeVisible();
  await snap(page, 'record-search-de');
  await expectAccessible(page, 'the header search with records (German)');

  const target = await optionIndex(page, pos.name);
  const first = await page.getByRole('option').first().getAttribute('aria-selected');
  expect(first).toBe('true');
  for (let i = 0; i < target; i++) await search.press('ArrowDown');
  await expect(group.getByRole('option', { name: new RegExp(`^${pos.name}`) })).toHaveAttribute('aria-selected', 'true');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/table/pos/view/${pos.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(pos.name) })).toBeVisible({ timeout: 30_000 });
  await snap(page, 'record-search-pos-page-de');

  // A word nothing has: the empty state, in German.
  await page.keyboard.press('Control+k');
  await search.fill('zzqxy');
  await expect(page.getByRole('status').filter({ hasText: 'Keine Datensätze gefunden' })).toBeVisible();
  await snap(page, 'record-search-nothing-de');
});

test('the savings card shows this year’s claims, and last year’s as a choice (German)', async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, MEMBER, '/app');
  const claimed = page.getByTestId('figure-savings-claimed');
  await expect(claimed).toBeVisible({ timeout: 30_000 });
  const year = String(new Date().getUTCFullYear());
  const choice = page.getByRole('combobox', { name: 'Jahr' });
  await expect(choice).toHaveValue(year);
  // The demo's claims of this year (decision 0069); other specs may have claimed more meanwhile.
  expect(await amount(claimed)).toBeGreaterThan(0);
  expect(await amount(page.getByTestId('figure-savings-realised'))).toBeGreaterThan(0);
  await expect(page.getByText('Forderungen im Jahr, in dem sie erhoben wurden')).toBeVisible();
  await claimed.scrollIntoViewIfNeeded();
  await snap(page, 'savings-card-de');

  // An earlier year's claims, carried over without history, count on their statement's date.
  await choice.click();
  const earlier = page.getByRole('option').filter({ hasNotText: year }).first();
  const thisYear = await amount(claimed);
  await earlier.click();
  await expect(choice).not.toHaveValue(year);
  await expect.poll(() => amount(claimed)).not.toBe(thisYear);
  expect(await amount(claimed)).toBeGreaterThan(0);

  // The savings page offers the same years, counted the same way.
  await page.goto('/app/invoice-savings');
  const pageYear = page.getByRole('combobox', { name: 'Jahr der Forderung' });
  await expect(pageYear).toBeVisible({ timeout: 30_000 });
  await pageYear.click();
  await page.getByRole('option', { name: year, exact: true }).click();
  await expect(page.getByTestId('savings-total-claimed')).not.toHaveText('0,00');
  await snap(page, 'savings-page-de');
});

test('a ticket found by its number opens in the drawer on its board', async ({ page, request }) => {
  test.setTimeout(120_000);
  const [ticket] = await firstRows<{ ticket_id: number; ticket_name: string; board_id: number }>(request, 'ticket', 'ticket_id', ['ticket_name', 'board_id'], 1);
  await openAs(page, MEMBER, '/app');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Name der Ansicht oder eines Datensatzes/ });
  await search.fill(`#${ticket.ticket_id}`);
  const hit = page.getByRole('group', { name: 'Tickets' }).getByRole('option').first();
  await expect(hit).toHaveText(new RegExp(`^${ticket.ticket_name}`));
  // A number also finds the invoice with that key, in the group before: walk down to the ticket.
  for (let i = 0; i < 25 && (await hit.getAttribute('aria-selected')) !== 'true'; i++) await search.press('ArrowDown');
  await expect(hit).toHaveAttribute('aria-selected', 'true');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/table/board/${ticket.board_id}/kanban\\?ticket=${ticket.ticket_id}$`));
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText(`#${ticket.ticket_id} ${ticket.ticket_name}`)).toBeVisible({ timeout: 30_000 });
  await snap(page, 'record-search-ticket-drawer-de');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/app/table/board/${ticket.board_id}/kanban$`));
});

import { expect, test } from './fixtures';
import { openAs, snap } from './helpers';

/** The number a figure shows ("1,234" in English). */
async function figure(page: import('@playwright/test').Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).locator('p').first().textContent()) ?? '';
  return Number(text.replace(/[^\d]/g, ''));
}

for (const skin of ['light', 'dark'] as const) {
  test(`the dashboard home shows the portfolio's figures and map, the overdue tickets open their list (${skin} skin)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    await openAs(page, 'admin@demo.test', '/app');
    await expect(page.getByTestId('figure-pos')).toBeVisible({ timeout: 30_000 });
    expect(await figure(page, 'figure-pos')).toBeGreaterThan(0);
    // The demo deadlines fall within 30 and 90 days.
    expect(await figure(page, 'figure-deadlines-red')).toBeGreaterThan(0);
    // The statements' objection deadlines have their own card.
    await expect(page.getByText('Statement objection deadlines in the next 90 days')).toBeVisible();
    await expect(page.getByTestId('figure-statements-red')).toBeVisible();
    // The map places the points of sale: markers, single or clustered.
    const markers = page.locator('[data-testid="map-point"], [data-testid="map-cluster"]');
    await expect(markers.first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/GeoNames/)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
    await snap(page, `dashboard-home-${skin}`);

    // The overdue tickets figure opens the ticket list filtered to exactly those tickets.
    const link = page.getByTestId('figure-tickets-over_due_red');
    const count = Number((await link.textContent())?.replace(/[^\d]/g, ''));
    expect(count).toBeGreaterThan(0);
    await link.click();
    await expect(page).toHaveURL(/\/app\/table\/ticket\?.*ticket_deadline_status/);
    const grid = page.getByRole('grid');
    await expect(grid.locator('td[data-column="ticket_name"]').first()).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => grid.locator('td[data-column="ticket_name"]').count(), { timeout: 30_000 }).toBe(count);
  });

  test(`the red deadlines figure opens the deadline list on its window (${skin} skin)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    await openAs(page, 'admin@demo.test', '/app');
    await expect(page.getByTestId('figure-deadlines-red')).toBeVisible({ timeout: 30_000 });
    const red = await figure(page, 'figure-deadlines-red');
    expect(red).toBeGreaterThan(0);
    await page.getByTestId('figure-deadlines-red').click();
    await expect(page).toHaveURL(/\/app\/deadline-list\?.*contractaction_notice_date/);
    const deadlines = page.getByRole('grid').locator('td[data-column="contractaction_notice_date"]');
    await expect.poll(async () => deadlines.count(), { timeout: 30_000 }).toBe(red);
  });
}

test('the overdue deadlines figure opens the deadline list on its Overdue window, each one lit', async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, 'team_lead@demo.test', '/app');
  await expect(page.getByTestId('figure-deadlines-overdue')).toBeVisible({ timeout: 30_000 });
  // The demo holds active resiliations whose notice date passed long ago.
  const overdue = await figure(page, 'figure-deadlines-overdue');
  expect(overdue).toBeGreaterThan(0);
  await page.getByTestId('figure-deadlines-overdue').click();
  await expect(page).toHaveURL(/\/app\/deadline-list\?/);
  await expect(page.getByRole('radio', { name: 'Overdue' })).toBeChecked();
  const lights = page.getByRole('grid').locator('[data-light="red"]');
  await expect.poll(async () => lights.count(), { timeout: 30_000 }).toBe(overdue);
  await expect(lights.first()).toHaveText(/overdue/);
  await snap(page, 'deadline-list-overdue');
});

test('a click on the map opens a point of sale', async ({ page }) => {
  test.setTimeout(90_000);
  await openAs(page, 'admin@demo.test', '/app');
  const single = page.getByTestId('map-point');
  await expect(page.locator('[data-testid="map-point"], [data-testid="map-cluster"]').first()).toBeVisible({ timeout: 30_000 });
  // A cluster zooms in until single points show.
  for (let i = 0; i < 4 && (await single.count()) === 0; i++) {
    await page.getByTestId('map-cluster').first().click();
  }
  const name = await single.first().getAttribute('aria-label');
  await single.first().click();
  await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+/);
  await expect(page.getByText(name ?? '').first()).toBeVisible({ timeout: 30_000 });
});

test('an external lead sees only their group on the dashboard', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await openAs(page, 'admin@demo.test', '/app');
  await expect(page.getByTestId('figure-pos')).toBeVisible({ timeout: 30_000 });
  const all = await figure(page, 'figure-pos');
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin });
  page = await other.newPage();
  await openAs(page, 'lead@demo.test', '/app');
  await expect(page.getByTestId('figure-pos')).toBeVisible({ timeout: 30_000 });
  const mine = await figure(page, 'figure-pos');
  expect(mine).toBeGreaterThan(0);
  expect(mine).toBeLessThan(all);
  await other.close();
});

for (const skin of ['light', 'dark'] as const) {
  test(`the ticket dashboard shows open tickets per board, status and team and links to the lists (${skin} skin)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    await openAs(page, 'team_lead@demo.test', '/app/dashboard/ticket');
    await expect(page.getByRole('heading', { name: 'Ticket dashboard' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Open tickets per team')).toBeVisible();
    await expect(page.getByText('Tickets opened and closed per week')).toBeVisible();
    await snap(page, `ticket-dashboard-${skin}`);
    const board = page.getByTestId('board-1');
    const count = Number(await board.textContent());
    expect(count).toBeGreaterThan(0);
    await board.click();
    await expect(page).toHaveURL(/\/app\/table\/ticket\?.*board_id/);
    // The link's filter (one board) names the board in the filter panel, not its id.
    // The label comes with the board's options, a request of its own: give it the page's time.
    await expect(page.getByRole('search', { name: 'Filters' }).getByText('Facility Management', { exact: true })).toBeVisible({ timeout: 30_000 });
    const grid = page.getByRole('grid');
    await expect.poll(async () => grid.locator('td[data-column="ticket_name"]').count(), { timeout: 30_000 }).toBe(count);
  });
}

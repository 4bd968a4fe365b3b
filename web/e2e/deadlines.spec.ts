import { expect, expectAccessible, test } from './fixtures';
import { openAs, snap } from './helpers';

/** "YYYY-MM-DD" of the local day `days` from now. */
function isoDay(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + days)).toISOString().slice(0, 10);
}

// The team lead has the list right on deadlines through the contracts table group (read).
for (const skin of ['light', 'dark'] as const) {
  test(`a team lead filters the deadline list to the next 90 days (${skin} skin)`, async ({ page }) => {
    // Two axe runs over full pages on a shared machine.
    test.setTimeout(180_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    await openAs(page, 'team_lead@demo.test', '/app/deadline-list');
    await expect(page.getByRole('heading', { name: 'Deadlines list' })).toBeVisible({ timeout: 30_000 });
    const grid = page.getByRole('grid');
    // The demo seed puts active deadlines within 30, 90 and 365 days: each light shows its words.
    await expect(grid.getByText(/^Urgent · /).first()).toBeVisible({ timeout: 30_000 });
    // Each deadline names its contract's point of sale; the notice date's header and the contract's label are not cut.
    await expect(grid.getByRole('columnheader', { name: 'Point of sale' })).toBeVisible();
    await expect(grid.locator('td[data-column="contract_pos_name"]').first()).toHaveText(/\S/);
    const cut = async (cell: import('@playwright/test').Locator) =>
      cell.evaluate((el) => {
        const text = el.querySelector('span') ?? el;
        return text.scrollWidth > text.clientWidth;
      });
    expect(await cut(grid.getByRole('columnheader', { name: /^Notice date/ }))).toBe(false);
    // "Mietvertrag Nordhandel Gare de Amiens" (37 characters) reads in full.
    expect(await cut(grid.locator('td[data-column="contract_id"]', { hasText: /^.{1,37}$/ }).first())).toBe(false);

    await page.getByText('Next 90 days', { exact: true }).click();
    await expect(page).toHaveURL(/contractaction_notice_date/);
    await expect(page.getByRole('radio', { name: 'Next 90 days' })).toBeChecked();
    await expect(page.getByTestId('empty-state')).toHaveCount(0);

    // Every notice date shown lies from today to 90 days ahead (English dates are MM/DD/YYYY,
    // compared as ISO), once the filtered page has replaced the one shown before it.
    const from = isoDay(0);
    const to = isoDay(90);
    const asIso = (us: string) => us.replace(/^(\d{2})\/(\d{2})\/(\d{4})$/, '$3-$1-$2');
    const outside = async () => {
      const dates = (await grid.locator('td[data-column="contractaction_notice_date"]').allTextContents()).map((d) => asIso(d.trim()));
      return dates.length === 0 ? ['no rows'] : dates.filter((iso) => iso < from || iso > to);
    };
    await expect.poll(outside, { message: `notice dates outside ${from} to ${to}`, timeout: 30_000 }).toEqual([]);
    // No green light within 90 days.
    await expect(grid.getByText(/^On track · /)).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
    await snap(page, `deadline-list-90-${skin}`);
    await expectAccessible(page, `the deadline list (${skin})`);
  });
}

// German and French titles run longer than the English ones: no column header is cut.
for (const [lang, title] of [
  ['de', 'Fristenliste'],
  ['fr', 'Liste des échéances'],
] as const) {
  test(`the deadline list's headers read in full in ${lang}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.language', value), lang);
    await openAs(page, 'team_lead@demo.test', '/app/deadline-list');
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
    const grid = page.getByRole('grid');
    await expect(grid.locator('td[data-column="contract_id"]').first()).toHaveText(/\S/, { timeout: 30_000 });
    const cutHeaders = await grid.getByRole('columnheader').evaluateAll((cells) =>
      cells
        .map((el) => el.querySelector('span') ?? el)
        .filter((text) => text.scrollWidth > text.clientWidth)
        .map((text) => text.textContent),
    );
    expect(cutHeaders).toEqual([]);
    await snap(page, `deadline-list-${lang}`);
  });
}

test('the profile shows the digest settings and makes a calendar link that serves an .ics', async ({ page }) => {
  test.setTimeout(180_000);
  await openAs(page, 'team_lead@demo.test', '/app/user/profile');
  const alerts = page.getByRole('region', { name: 'Deadline alerts' });
  await expect(alerts.getByRole('switch', { name: /Daily digest mail/ })).toBeChecked({ timeout: 30_000 });
  for (const d of ['90', '30', '7']) await expect(alerts.getByRole('checkbox', { name: d, exact: true })).toBeChecked();
  await alerts.getByText('14', { exact: true }).click();
  await expect(alerts.getByRole('checkbox', { name: '14', exact: true })).toBeChecked();
  await alerts.getByRole('button', { name: 'Update alert settings' }).click();
  await expect(page.getByText('Your deadline alert settings have been saved.')).toBeVisible();

  const calendar = page.getByRole('region', { name: 'Calendar link' });
  // No link yet: nothing to revoke.
  await expect(calendar.getByRole('button', { name: 'Create calendar link' })).toBeVisible();
  await expect(calendar.getByRole('button', { name: 'Revoke link' })).toHaveCount(0);
  await calendar.getByRole('button', { name: 'Create calendar link' }).click();
  const shown = calendar.getByTestId('calendar-url');
  await expect(shown).toContainText('/calendar/');
  const url = new URL((await shown.textContent()) ?? '');
  await expect(calendar.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await snap(page, 'profile-deadlines-light');
  await expectAccessible(page, 'the profile with the calendar link');
  await page.getByRole('button', { name: 'Dark skin' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await snap(page, 'profile-deadlines-dark');
  await expectAccessible(page, 'the profile with the calendar link (dark)');

  // The link needs no login: fetched without the app's token.
  const feed = await page.request.get(url.pathname);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('text/calendar');
  const body = await feed.text();
  expect(body.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
  expect(body).toContain('BEGIN:VEVENT');
  expect(body).toContain('DTSTART;VALUE=DATE:');

  // Back on the page, the link is reported (not shown again: only its hash is stored).
  await page.reload();
  await expect(calendar.getByTestId('calendar-exists')).toContainText('cannot be shown again');
  await expect(calendar.getByTestId('calendar-url')).toHaveCount(0);

  // Revoked after a confirmation: the link answers 404, and there is nothing left to revoke.
  await calendar.getByRole('button', { name: 'Revoke link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the calendar link?' });
  await dialog.getByRole('button', { name: 'Revoke link' }).click();
  await expect(page.getByText('Your calendar link has been revoked.')).toBeVisible();
  expect((await page.request.get(url.pathname)).status()).toBe(404);
  await expect(calendar.getByRole('button', { name: 'Revoke link' })).toHaveCount(0);
  await expect(calendar.getByRole('button', { name: 'Create calendar link' })).toBeVisible();
});

// The demo has no recurring payments: the list answers, empty, under its own table right.
test('the payments list lists recurring payments under their own right', async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, 'team_lead@demo.test', '/app/payments-list');
  await expect(page.getByRole('heading', { name: 'Payments list' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('grid').or(page.getByTestId('empty-state'))).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Export' })).toBeVisible();
  await snap(page, 'payments-list-light');
});

test('the statement deadlines list lights each statement by its objection deadline, in German too', async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, 'team_lead@demo.test', '/app/statement-deadlines');
  await expect(page.getByRole('heading', { level: 1, name: 'Statement deadlines' })).toBeVisible({ timeout: 30_000 });
  const grid = page.getByRole('grid');
  // Only statements whose day of receipt is known (the demo's three), the passed one first.
  const late = grid.getByRole('row').filter({ hasText: 'NK-DEMO-2024' });
  await expect(late).toContainText('04/20/2026');
  await expect(late).toContainText(/Urgent · \d+ days overdue/);
  await expect(grid.getByRole('row').filter({ hasText: 'NK-DEMO-2025' })).toContainText('04/20/2027');
  await expect(grid.getByRole('row').filter({ hasText: /NK-\d{4}-\d{7}/ })).toHaveCount(0);
  await snap(page, 'statement-deadlines');

  // The invoice page says each deadline with its rule.
  await late.getByText('NK-DEMO-2024').click();
  await expect(page.getByTestId('statement-deadlines')).toContainText('Objections by 20 April 2026: 12 months after receipt on 20 April 2025 (§ 556 (3) BGB)');

  await page.evaluate(() => window.localStorage.setItem('portfolio.language', 'de'));
  await page.goto('/app/statement-deadlines');
  await expect(page.getByRole('heading', { level: 1, name: 'Abrechnungsfristen' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('columnheader', { name: /Einwendungsfrist bis/ })).toBeVisible();
  await snap(page, 'statement-deadlines-de');
});

test("a deadline's responsible user is chosen among the people who may read its contract", async ({ page }) => {
  await openAs(page, 'admin@demo.test', '/app/table/contract/view/1');
  await page.getByRole('tab', { name: 'Deadlines' }).click();
  const tab = page.locator('[data-relation="contract_deadlines_rel"]');
  await tab.getByRole('button', { name: 'Create' }).click();
  const responsible = page.getByRole('textbox', { name: 'Responsible' }).or(page.getByRole('combobox', { name: 'Responsible' })).first();
  await responsible.click();
  const options = page.getByRole('listbox').last();
  // Staff of the provider may read every contract; Südmarkt's lead and the partner may not read Nordhandel's.
  await expect(options.getByRole('option', { name: /Tina Mitglied|Mitglied, Tina/ })).toBeVisible();
  await expect(options.getByRole('option', { name: /Südmann/ })).toHaveCount(0);
  await expect(options.getByRole('option', { name: /Paula Partner|Partner, Paula/ })).toHaveCount(0);
});

import { resolve } from 'node:path';
import { logIn } from './helpers';
import { expect, test } from './fixtures';

// Each test uploads, checks and imports through the server: slow on a busy machine.
test.slow();

/** A CSV of points of sale in the location `site`; `year` is the second row's first year. */
function posCsv(year: number, site: string): { name: string; mimeType: string; buffer: Buffer } {
  const lines = [
    'Company;Name;Branch number;First year;Contact person;Opening date;Location',
    `Nordhandel Retail GmbH;Nordhandel E2E Import Hafen;E2E-IMP-1;2019;Jonas Koch;01.03.2019;${site}`,
    `Nordhandel Retail GmbH;Nordhandel E2E Import Markt;E2E-IMP-2;${year};Jonas Koch;15.04.2020;${site}`,
  ];
  return { name: 'points-of-sale.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n') + '\r\n', 'utf-8') };
}

test('an administrator imports points of sale, sees the bad row, fixes the file, imports again and sees them on the map', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  // The two new stores opened in the building of a store the map shows: its location.
  await page.goto('/app');
  const before = await mapCounts(page);
  const neighbour = page.getByTestId('map-point').filter({ has: page.locator('title', { hasText: /^Nordhandel / }) }).first();
  const neighbourName = (await neighbour.getAttribute('aria-label')) ?? '';
  const placesBefore = await page.getByTestId('map-place').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  await neighbour.click();
  await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+/);
  await page.getByRole('tab', { name: 'Locations' }).click();
  const siteCell = page.getByRole('tabpanel').getByRole('row').nth(1).locator('td[data-column="location_name"]');
  await expect(siteCell).toBeVisible({ timeout: 30_000 });
  const site = (await siteCell.textContent()) ?? '';
  expect(site).not.toBe('');

  await page.goto('/app/import');
  await page.getByRole('combobox', { name: 'What to import' }).click();
  await page.getByRole('option', { name: 'Points of sale' }).click();

  const fileInput = page.locator('input[type="file"]');
  await fileInput.setInputFiles(posCsv(1700, site));
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Columns (2 rows)')).toBeVisible();
  await page.getByRole('button', { name: 'Validate' }).click();
  const errors = page.getByRole('table', { name: 'Errors per row' });
  await expect(errors).toBeVisible();
  // The bad row is line 3 of the file, its first year out of range.
  await expect(errors.getByRole('row').filter({ hasText: 'First year' })).toContainText('3');
  await expect(page.getByText('1 row with errors')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import 1 row' })).toBeDisabled();

  await fileInput.setInputFiles(posCsv(2020, site));
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('2 rows valid')).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByText('2 records imported.')).toBeVisible();

  await page.goto('/app/table/pos');
  // The list is a screen of its own, loaded on first use.
  await expect(page.getByRole('textbox', { name: 'Search' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('textbox', { name: 'Search' }).fill('E2E Import');
  await expect(page.getByText('Nordhandel E2E Import Hafen')).toBeVisible();
  await expect(page.getByText('Nordhandel E2E Import Markt')).toBeVisible();

  // The workbook's Location column placed them at their neighbour's place: two more on the map.
  await page.goto('/app');
  await expect
    .poll(async () => mapCounts(page), { timeout: 30_000 })
    .toEqual({ placed: before.placed + 2, unplaced: before.unplaced });
  await expect(page.getByTestId('map-point').filter({ has: page.locator('title', { hasText: neighbourName }) })).toHaveCount(0);
  const places = page.getByTestId('map-place');
  const labels = await places.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  const added = labels.filter((l) => !placesBefore.includes(l));
  expect(added).toHaveLength(1);
  expect(added[0]).toMatch(/^3 points of sale in /);
  await places.filter({ has: page.locator('title', { hasText: added[0] ?? '' }) }).click();
  const list = page.getByRole('dialog');
  await expect(list.getByTestId('map-place-pos')).toHaveCount(3);
  const imported = ['Nordhandel E2E Import Hafen', 'Nordhandel E2E Import Markt'];
  for (const name of [neighbourName, ...imported]) {
    await expect(list.getByTestId('map-place-pos').filter({ hasText: name })).toHaveCount(1);
  }
  await list.getByTestId('map-place-pos').filter({ hasText: imported[0] }).click();
  await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+/);
  await page.getByRole('tab', { name: 'Locations' }).click();
  await expect(page.getByRole('tabpanel').getByText(site, { exact: true })).toBeVisible({ timeout: 30_000 });
});

/** The map's counts: points of sale on the map and without a known postal code. */
async function mapCounts(page: import('@playwright/test').Page): Promise<{ placed: number; unplaced: number }> {
  const text = (await page.getByText(/points of sale on the map/).textContent({ timeout: 30_000 })) ?? '';
  const [placed, unplaced] = (text.match(/\d[\d,]*/g) ?? []).map((n) => Number(n.replace(/,/g, '')));
  return { placed: placed ?? -1, unplaced: unplaced ?? -1 };
}

test('an administrator imports a contract workbook with its area, deadline and payment', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/import-contract');
  await expect(page.getByRole('heading', { name: 'Contract import' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Template workbook' }).click();
  expect((await download).suggestedFilename()).toBe('contract-import.xlsx');

  await page.locator('input[type="file"]').setInputFiles(resolve(import.meta.dirname, 'files/contract-import.xlsx'));
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByText('Contracts: 1 of 1')).toBeVisible();
  await expect(page.getByText('Deadlines: 1 of 1')).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Imported: 1 contract with its areas, deadlines and payments.')).toBeVisible();
});

import { resolve } from 'node:path';
import { logIn } from './helpers';
import { expect, test } from './fixtures';

// Each test uploads, checks and imports through the server: slow on a busy machine.
test.slow();

/** A CSV of points of sale; `year` is the second row's first year. */
function posCsv(year: number): { name: string; mimeType: string; buffer: Buffer } {
  const lines = [
    'Company;Name;Branch number;First year;Contact person;Opening date',
    'Nordhandel Retail GmbH;Nordhandel E2E Import Hafen;E2E-IMP-1;2019;Jonas Koch;01.03.2019',
    `Nordhandel Retail GmbH;Nordhandel E2E Import Markt;E2E-IMP-2;${year};Jonas Koch;15.04.2020`,
  ];
  return { name: 'points-of-sale.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n') + '\r\n', 'utf-8') };
}

test('an administrator imports points of sale, sees the bad row, fixes the file and finds the rows in the list', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/import');
  await page.getByRole('combobox', { name: 'What to import' }).click();
  await page.getByRole('option', { name: 'Points of sale' }).click();

  const fileInput = page.locator('input[type="file"]');
  await fileInput.setInputFiles(posCsv(1700));
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Columns (2 rows)')).toBeVisible();
  await page.getByRole('button', { name: 'Validate' }).click();
  const errors = page.getByRole('table', { name: 'Errors per row' });
  await expect(errors).toBeVisible();
  // The bad row is line 3 of the file, its first year out of range.
  await expect(errors.getByRole('row').filter({ hasText: 'First year' })).toContainText('3');
  await expect(page.getByText('1 rows with errors')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import 1 rows' })).toBeDisabled();

  await fileInput.setInputFiles(posCsv(2020));
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
});

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
  await expect(page.getByText('Imported: 1 contracts with their areas, deadlines and payments.')).toBeVisible();
});

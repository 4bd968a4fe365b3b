import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect as baseExpect, expectAccessible, test } from './fixtures';
import { type Page } from '@playwright/test';
import { logIn, mainMenu, snap } from './helpers';

/** Each screen is its own chunk and the machine is shared: allow time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** The publisher's file as a user downloads it (the shipped copy when the shared data folder is absent). */
const SHARED = '/work/shared/data/price-index/61111-0002_de.csv';
const INDEX_FILE = existsSync(SHARED) ? SHARED : resolve(import.meta.dirname, '../../internal/indexation/data/61111-0002_de.csv');

/** Follows the menu's entry `name` of the Contracts section (opened first when closed). */
async function menuEntry(page: Page, name: string) {
  const link = mainMenu(page).getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await mainMenu(page).getByText('Contracts', { exact: true }).first().click();
  await link.click();
}

test('an administrator imports the index file, runs the evaluation, approves the first proposal and downloads its letter', async ({ page, expected }) => {
  test.setTimeout(180_000);
  // The broken file below is refused on purpose.
  expected.response(422, /\/priceindexes\/1\/import$/);
  await logIn(page, 'admin@demo.test');

  // The price index series: reached from the menu, its chart, values and attribution.
  await menuEntry(page, 'Price indexes');
  await expect(page).toHaveURL(/\/app\/table\/priceindex$/);
  await page.getByRole('grid', { name: 'Price indexes' }).getByText(/Verbraucherpreisindex/).first().click();
  await expect(page).toHaveURL(/\/app\/table\/priceindex\/view\/1$/);
  await expect(page.getByRole('heading', { level: 1, name: /Verbraucherpreisindex/ })).toBeVisible();
  await expect(page.getByTestId('index-attribution')).toContainText('dl-de/by-2-0');
  await expect(page.getByTestId('index-attribution')).toContainText('Destatis');
  await expect(page.locator('.recharts-line')).toBeVisible();
  await expect(page.getByTestId('index-values').locator('tbody tr')).toHaveCount(24);
  await snap(page, 'indexation-series');
  await expectAccessible(page, 'the price index page');

  // Import the publisher's file: the demo seed shipped the same values, so nothing changes.
  await page.getByRole('button', { name: 'Import values' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import index values' });
  await dialog.locator('input[type="file"]').setInputFiles(INDEX_FILE);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const summary = dialog.getByTestId('import-summary');
  await expect(summary).toContainText('New: 0');
  await expect(summary).toContainText('Revised: 0');
  await expect(summary).toContainText(/Unchanged: [1-9]\d{2}/);
  await snap(page, 'indexation-import');

  // A broken file is refused with its line, nothing imported (after the access token expired: the upload refreshes it).
  await page.waitForTimeout(9_000);
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('2024-01;117.6\n2024-02;abc\n'),
  });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByTestId('import-error')).toContainText(/line 2\b/);
  await snap(page, 'indexation-import-refused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The open proposals after a run (the daily job may have run already at the server's start: then it creates none).
  await menuEntry(page, 'Index adjustments');
  await expect(page).toHaveURL(/\/app\/index-adjustments$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Index adjustment proposals' })).toBeVisible();
  await page.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(page.getByTestId('run-result')).toContainText(/[1-9]\d* payments evaluated, \d+ new proposals, [1-9]\d* open in all/);
  const table = page.getByTestId('adjustment-table');
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  await snap(page, 'indexation-proposals');
  await expectAccessible(page, 'the open proposals');

  // Approve the first proposal behind the confirmation.
  const first = rows.first();
  const testId = await first.getAttribute('data-testid');
  const adjustmentId = Number(testId?.replace('adjustment-', ''));
  const payment = (await first.locator('a').first().textContent()) ?? '';
  await first.getByRole('button', { name: 'Approve' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve the adjustment?' });
  await expect(confirm).toContainText(payment);
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(/^Approved:/)).toBeVisible();
  await expect(rows).toHaveCount(before - 1);

  // Its payment's chain shows it approved; its letter downloads as a PDF with the session's token.
  await page.getByRole('link', { name: payment }).first().click();
  await expect(page).toHaveURL(/\/app\/table\/recurringpayment\/view\/\d+/);
  const approved = page.getByTestId(`adjustment-${adjustmentId}`);
  await expect(approved).toContainText('Approved');
  await snap(page, 'indexation-payment-chain');
  await approved.getByRole('button', { name: 'Letter' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'German (PDF)' }).click()]);
  expect(download.suggestedFilename()).toBe(`index-adjustment-${adjustmentId}-de.pdf`);
  expect(download.url()).not.toContain('token');
  const saved = await download.path();
  expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');

  // The contract's schedule tab (the first demo rent is on contract 1): month by month with a total per year.
  await page.goto('/app/table/contract/view/1?tab=schedule');
  const year = new Date().getFullYear();
  await expect(page.getByTestId(`schedule-year-${year}`)).toBeVisible();
  await expect(page.getByTestId(`schedule-year-${year + 1}`)).toBeVisible();
  await expect(page.getByTestId('schedule-table')).toContainText('Grundmiete (indexiert)');
  await snap(page, 'indexation-schedule');
});

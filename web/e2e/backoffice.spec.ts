import { expect, test } from './fixtures';
import { logIn, mainMenu, snap } from './helpers';

test('the administrator opens the Back Office, runs the document sweep now and sees its last run change', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/app$/);
  await expect(mainMenu(page).getByText('Back Office', { exact: true }).first()).toBeVisible();
  await page.goto('/app/backoffice');
  await expect(page.getByRole('heading', { name: 'Back Office' })).toBeVisible();

  const table = page.getByRole('table', { name: 'Background jobs' });
  const sweep = table.getByRole('row').filter({ hasText: 'document_sweep' });
  await expect(sweep).toContainText('Document file sweep');
  await expect(sweep).toContainText('Daily at 03:00 UTC');
  // The server ran the sweep when it started (it had not run today yet).
  await expect(sweep.getByTestId('state')).toHaveText('Completed');
  const lastRun = sweep.getByTestId('last-run');
  const before = (await lastRun.textContent()) ?? '';
  expect(before).toMatch(/\d{2}:\d{2}:\d{2}/);
  await snap(page, 'backoffice-light');

  await sweep.getByRole('button', { name: 'Run Document file sweep now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run the job now' });
  await expect(dialog).toContainText('Run “Document file sweep” now?');
  await dialog.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByText('“Document file sweep” is queued and runs shortly.')).toBeVisible();

  // The screen watches the run until it settles: a new last run, completed.
  await expect(lastRun).not.toHaveText(before, { timeout: 30_000 });
  await expect(sweep.getByTestId('state')).toHaveText('Completed', { timeout: 30_000 });
  await expect(sweep).toContainText('1 / 5');

  // The dark skin shows the same table.
  await page.getByRole('button', { name: 'Switch to dark skin' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(sweep).toContainText('Document file sweep');
  await snap(page, 'backoffice-dark');
});

import { expect, test } from './fixtures';
import { logIn, mainMenu, snap } from './helpers';

test('the administrator opens the Back Office, runs the document sweep now and sees its last run change', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/app$/);
  await expect(mainMenu(page).getByText('Back Office', { exact: true }).first()).toBeVisible();
  await page.goto('/app/backoffice');
  await expect(page.getByRole('heading', { level: 1, name: 'Back Office' })).toBeVisible();

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

test('the administrator reads the outbox, edits and restores a translation and recomputes the rights', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/backoffice');
  await expect(page.getByRole('heading', { name: 'Back Office' })).toBeVisible();

  // The mail outbox: every message with its state (the demo seed's mail, if any, or the empty state).
  await page.getByRole('tab', { name: 'Mail outbox' }).click();
  await expect(page.getByRole('table', { name: 'Mail outbox' }).or(page.getByTestId('outbox-empty'))).toBeVisible();
  const states = page.getByRole('radiogroup', { name: 'Show mail in state' });
  await states.getByText('Given up', { exact: true }).click();
  await expect(page.getByTestId('outbox-empty')).toBeVisible();
  await states.getByText('All', { exact: true }).click();
  await snap(page, 'backoffice-outbox');

  // A UI text edited here is listed beside the shipped text and kept; restoring brings the shipped one back.
  await page.getByRole('tab', { name: 'Translations' }).click();
  await page.getByRole('switch', { name: 'Show all texts' }).click();
  await page.getByRole('textbox', { name: 'Search keys and texts' }).fill('backoffice.outbox.empty');
  const row = page.getByTestId('translation-row').filter({ hasText: 'No mail in this state.' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Edit: backoffice.outbox.empty (en)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit the text' });
  await dialog.getByRole('textbox', { name: 'Text' }).fill('Nothing to send.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The text is saved and kept over shipped texts.')).toBeVisible();
  await page.getByRole('switch', { name: 'Show all texts' }).click();
  const edited = page.getByTestId('translation-row').filter({ hasText: 'Nothing to send.' });
  await expect(edited).toContainText('Kept');
  await expect(edited).toContainText('No mail in this state.');
  await snap(page, 'backoffice-translations');
  await edited.getByRole('button', { name: 'Restore the shipped text: backoffice.outbox.empty (en)' }).click();
  await page.getByRole('dialog', { name: 'Restore the shipped text?' }).getByRole('button', { name: 'Restore the shipped text' }).click();
  await expect(page.getByText('The shipped text is restored.')).toBeVisible();
  await expect(page.getByTestId('translation-row').filter({ hasText: 'Nothing to send.' })).toHaveCount(0);

  // The rights generation moves on by one after a confirmation.
  await page.getByRole('tab', { name: 'Rights generation' }).click();
  const generation = page.getByTestId('rights-generation');
  await expect(generation).toHaveText(/^\d+$/);
  const before = Number(await generation.textContent());
  await page.getByRole('button', { name: 'Recompute all rights' }).click();
  await page.getByRole('dialog', { name: 'Recompute all rights?' }).getByRole('button', { name: 'Recompute all rights' }).click();
  await expect(generation).toHaveText(String(before + 1));
  await snap(page, 'backoffice-rights');
});

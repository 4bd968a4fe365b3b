import { expect, test } from './fixtures';
import { logIn, snap } from './helpers';

test('the administrator opens the error dashboard with its four sections, failed imports among them', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/dashboard/errors');
  await expect(page.getByRole('heading', { level: 1, name: 'Error dashboard' })).toBeVisible();
  for (const section of ['Failed job runs', 'Undelivered mail', 'Failed imports', 'Failed answers of the server']) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
  }
  await expect(page.getByText('No import failed.')).toBeVisible();
  await snap(page, 'error-dashboard');
});

import { expect, test } from './fixtures';
import { logIn, mainMenu } from './helpers';

test('an external team member sees no administration and may not open the back office', async ({ page }) => {
  await logIn(page, 'ext_team_member@demo.test');
  await expect(page).toHaveURL(/\/app$/);
  const menu = mainMenu(page);
  await expect(menu).toBeVisible();
  await expect(menu.getByText('Administration', { exact: true })).toHaveCount(0);
  await expect(menu.getByText('Back Office', { exact: true })).toHaveCount(0);
  await expect(menu.getByText('Master data', { exact: true })).toHaveCount(0);

  await page.goto('/app/menu');
  await expect(page.getByRole('heading', { name: 'Menu overview' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Administration' })).toHaveCount(0);

  await page.goto('/app/backoffice');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await expect(page.getByRole('heading', { name: 'Access not allowed' })).toBeVisible();

  await page.goto('/app/table/user');
  await expect(page).toHaveURL(/\/not-authorized$/);
});

test('an FM team member lands on the boards', async ({ page }) => {
  await logIn(page, 'fm@demo.test');
  await expect(page).toHaveURL(/\/app\/table\/board\/\d+\/kanban$/);
});

test('a visitor without a session is sent to the login', async ({ page }) => {
  await page.goto('/app/table/contract');
  await expect(page).toHaveURL(/\/login$/);
});

import { expect, test } from './fixtures';
import { logIn, mainMenu, snap } from './helpers';

test('the administrator logs in, sees the menu, switches to German and the dark skin, and logs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Portfolio' })).toBeVisible();
  await snap(page, 'login-light');

  await logIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Welcome back to Portfolio')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome, Anna' })).toBeVisible();

  const menu = mainMenu(page);
  await expect(menu).toBeVisible();
  for (const section of ['Dashboards', 'Customers & sites', 'Contracts', 'Invoices', 'Master data', 'Administration']) {
    await expect(menu.getByText(section, { exact: true }).first()).toBeVisible();
  }
  await snap(page, 'home-light');

  await page.goto('/app/menu');
  await expect(page.getByRole('heading', { name: 'Menu overview' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Administration' })).toBeVisible();
  await snap(page, 'menu-light');

  // German texts.
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { name: 'Menüübersicht' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stammdaten' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // Dark skin, remembered after a reload.
  await page.getByRole('button', { name: 'Zum dunklen Design wechseln' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('heading', { name: 'Menüübersicht' })).toBeVisible();
  await snap(page, 'menu-dark');
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: 'Willkommen, Anna' })).toBeVisible();
  await snap(page, 'home-dark');

  // Log out.
  await page.getByRole('button', { name: 'Benutzermenü' }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Bei Portfolio anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('portfolio.access_token'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('portfolio.user'))).toBeNull();
  await snap(page, 'login-dark');

  // The session is gone: the app sends the visitor back to the login.
  await page.goto('/app/menu');
  await expect(page).toHaveURL(/\/login$/);
});

test('the menu switches between side and top layout and works on a phone', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.getByRole('button', { name: 'Show the menu at the top' }).click();
  const top = mainMenu(page);
  await top.getByRole('button', { name: 'Administration' }).click();
  await page.getByRole('menuitem', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/app\/table\/user$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show the menu at the side' })).toBeVisible();
  await snap(page, 'users-horizontal-light');

  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const side = mainMenu(page);
  await side.getByText('Customers & sites', { exact: true }).click();
  await side.getByRole('link', { name: 'Points of sale' }).click();
  await expect(page).toHaveURL(/\/app\/table\/pos$/);
  await expect(page.getByRole('heading', { name: 'Points of sale' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Points of sale' }).locator('tbody tr').first()).toBeVisible();
  await snap(page, 'phone-light');
});

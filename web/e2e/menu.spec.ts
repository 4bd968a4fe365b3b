import { expect, test } from './fixtures';
import { logIn, mainMenu, openAs } from './helpers';

test('master data is one page, searchable, and the menu search (Ctrl+K) finds any screen', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  const menu = mainMenu(page);
  // One entry for master data, and no screen twice ("Facility" only repeated others).
  await expect(menu.getByRole('link', { name: 'Master data', exact: true })).toBeVisible();
  await expect(menu.getByText('Facility', { exact: true })).toHaveCount(0);
  await menu.getByRole('link', { name: 'Master data', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/master-data$/);
  await expect(page.getByRole('heading', { name: 'Master data', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search master data' }).fill('curr');
  await expect(page.getByRole('link', { name: 'Currencies' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Units' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Currencies' }).click();
  await expect(page.getByRole('heading', { name: 'Currencies', level: 1 })).toBeVisible();

  // Ctrl+K from anywhere: type, choose with the arrows, open with Enter.
  await page.keyboard.press('Control+k');
  const search = page.getByRole('combobox', { name: /Screen name/ });
  await expect(search).toBeFocused();
  await search.fill('invoice pos');
  await expect(page.getByRole('option')).toHaveCount(1);
  await search.press('Enter');
  await expect(page).toHaveURL(/\/app\/table\/invoiceposition$/);
  await page.keyboard.press('Control+k');
  await search.fill('units');
  await expect(page.getByRole('option', { name: /Units/ })).toBeVisible();
  await search.press('Enter');
  await expect(page).toHaveURL(/\/app\/table\/unit$/);
  await page.goto('/app/table/contract/create');
  await expect(page.getByRole('heading', { name: 'New contract', level: 1 })).toBeVisible();
});

test('the 403 and 404 pages keep the menu; German names the menu sections in German', async ({ page }) => {
  await openAs(page, 'ext_team_member@demo.test', '/app/table/user');
  await expect(page).toHaveURL(/\/app\/not-authorized$/);
  await expect(page.getByRole('heading', { name: 'Access not allowed' })).toBeVisible();
  await expect(mainMenu(page)).toBeVisible();
  await page.goto('/app/no/such/screen');
  await expect(page).toHaveURL(/\/app\/error-404$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(mainMenu(page)).toBeVisible();

  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(mainMenu(page).getByText('Übersichten', { exact: true })).toBeVisible();
  await expect(mainMenu(page).getByText('Dashboards', { exact: true })).toHaveCount(0);
});

test('the horizontal menu wraps: Import and Administration stay on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(() => window.localStorage.setItem('portfolio.layout', 'horizontal'));
  await logIn(page, 'admin@demo.test');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  for (const name of [/^Import/, /^Administration/]) {
    const button = nav.getByRole('button', { name }).or(nav.getByRole('link', { name })).first();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
  // The page below the header is not covered by the wrapped menu.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeInViewport();
});

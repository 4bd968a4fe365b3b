import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { logIn, mainMenu, openAs, snap } from './helpers';

/**
 * A phone (390 × 844): the contract list, a contract and the create form are
 * usable: the menu opens from the burger, the label columns come first, and
 * nothing pushes the page sideways.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const PHONE_WIDTH = 390;
/** A page's first load may take a while on a busy machine: its first sign is waited for longer. */
const LOADED = { timeout: 30_000 };

/** The page is no wider than the phone: nothing to scroll sideways (grids scroll inside themselves). */
async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'page width on a phone').toBeLessThanOrEqual(PHONE_WIDTH);
}

/** The element lies within the phone's width. */
async function expectWithinWidth(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'element on screen').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE_WIDTH);
}

test.describe('on a phone', () => {
  // Each test runs axe over a full page.
  test.describe.configure({ timeout: 150_000 });

  test('the menu leads to the contract list, whose name column comes first', async ({ page }) => {
    await logIn(page, 'admin@demo.test');
    await expect(page).toHaveURL(/\/app$/);
    // Every button of the header fits: the user menu (profile, log out) too.
    for (const name of ['Open menu', 'Search', /^Language/, /skin$/, /User menu/]) {
      await expectWithinWidth(page.getByRole('banner').getByRole('button', { name }));
    }

    // The menu hides behind the burger and opens over the page.
    await expect(mainMenu(page)).not.toBeInViewport();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(mainMenu(page)).toBeInViewport();
    // The section opens (its title comes first), then its entry of the same name.
    await mainMenu(page).getByText('Contracts', { exact: true }).first().click();
    await mainMenu(page).getByRole('link', { name: 'Contracts', exact: true }).last().click();
    await expect(page).toHaveURL(/\/app\/table\/contract$/);
    // Choosing closes the menu: it slides away and the burger opens it again.
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    await expect(mainMenu(page)).not.toBeInViewport();

    await expect(page.getByRole('heading', { level: 1, name: 'Contracts' })).toBeVisible(LOADED);
    const grid = page.getByRole('grid', { name: 'Contracts' });
    await expect(grid.locator('tbody tr').first()).toBeVisible(LOADED);
    // The label column first, whole on screen; the id is no column of its own.
    const name = grid.getByRole('columnheader', { name: /^Name/ });
    await expectWithinWidth(name);
    await expect(grid.getByRole('columnheader', { name: '#' })).toHaveCount(0);
    await expectWithinWidth(page.getByRole('button', { name: 'Create' }));
    await expectNoSidewaysScroll(page);
    await snap(page, 'phone-contract-list');
    await expectAccessible(page, 'the contract list on a phone');
  });

  test('a contract reads top to bottom, each field once', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/contract');
    const grid = page.getByRole('grid', { name: 'Contracts' });
    const first = grid.locator('tbody tr').first();
    await expect(first).toBeVisible(LOADED);
    const contractName = (await first.getByRole('gridcell').nth(1).textContent())?.trim() ?? '';
    await first.getByRole('gridcell').nth(1).click();
    await expect(page).toHaveURL(/\/app\/table\/contract\/view\/\d+$/);

    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('record-key')).toHaveText(/^#\d+$/, LOADED);
    const form = page.getByRole('form', { name: 'Record' });
    await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(contractName);
    // The key is no field of the form; a reference shows its label once.
    await expect(form.getByRole('textbox', { name: 'Contract', exact: true })).toHaveCount(0);
    await expect(form.getByText('Point of sale', { exact: true })).toHaveCount(1);
    await expectWithinWidth(page.getByRole('button', { name: 'Edit' }));
    await expectWithinWidth(form.getByRole('textbox', { name: 'Name', exact: true }));
    await expect(page.getByRole('tab', { name: 'Invoices' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await snap(page, 'phone-contract-record');
    await expectAccessible(page, 'a contract on a phone');
  });

  test('the create form offers only the locations of the chosen point of sale', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/contract/create');
    await expect(page.getByRole('heading', { level: 1, name: 'New contract' })).toBeVisible(LOADED);
    // The first step of the contract steps page: the generic form of its fields.
    const form = page.getByRole('form', { name: 'Basic data' });
    await expectWithinWidth(form.getByRole('textbox', { name: /^Name/ }));

    // Nothing to choose before the point of sale is.
    const location = form.getByRole('combobox', { name: /^Location/ });
    await location.click();
    await expect(page.getByText('Location is not available')).toBeVisible();
    await page.keyboard.press('Escape');

    await form.getByRole('combobox', { name: /^Company/ }).click();
    await page.getByRole('option', { name: 'Nordhandel Retail GmbH' }).click();
    const pos = form.getByRole('combobox', { name: /^Point of sale/ });
    await pos.click();
    await pos.fill('Amiens');
    await page.getByRole('option', { name: 'Nordhandel Gare de Amiens' }).click();

    // Nordhandel has twelve locations; this point of sale is linked to one.
    await location.click();
    await expect(page.getByRole('option', { name: 'Gare de Amiens' })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(1);
    await page.getByRole('option', { name: 'Gare de Amiens' }).click();
    await expect(location).toHaveValue('Gare de Amiens');

    await expectWithinWidth(page.getByRole('button', { name: 'Save and continue' }));
    await expectNoSidewaysScroll(page);
    await snap(page, 'phone-contract-create');
    await expectAccessible(page, 'the contract create form on a phone');
  });
});

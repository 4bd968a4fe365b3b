import { expect, type Page, test } from '@playwright/test';
import { logIn, snap } from './helpers';

/** Picks option `name` of the Mantine select labelled `label`. */
async function choose(page: Page, label: RegExp, name: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name }).first().click();
}

test.describe('master data', () => {
  test('an administrator creates a point of sale in the modal', async ({ page }) => {
    await logIn(page, 'admin@demo.test');
    await page.goto('/app/table/pos/create');
    const dialog = page.getByRole('dialog', { name: 'New point of sale' });
    await expect(dialog).toBeVisible();
    await choose(page, /^Company/, 'Nordhandel Retail GmbH');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Filiale E2E');
    await dialog.getByRole('textbox', { name: /^Branch number/ }).fill('E2E-1');
    await dialog.getByRole('textbox', { name: /^First year/ }).fill('2024');
    await dialog.getByLabel(/^Opening date/).fill('2024-05-01');
    await page.getByRole('combobox', { name: /^Contact person/ }).click();
    await page.getByRole('option').first().click();
    await snap(page, 'masterdata-pos-modal');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Point of sale saved')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+$/);
  });

  test('an administrator adds a location whose state fills itself from the zip code', async ({ page }) => {
    await logIn(page, 'admin@demo.test');
    await page.goto('/app/table/location/create');
    await page.getByRole('textbox', { name: /^Name/ }).fill('Standort E2E');
    await choose(page, /^Owner company/, 'Nordhandel Retail GmbH');
    await choose(page, /^Location type/, /.+/);
    await page.getByRole('textbox', { name: /^Street/ }).fill('Invalidenstraße');
    await page.getByRole('textbox', { name: /^House number/ }).fill('7');
    await page.getByRole('textbox', { name: /^Postal code/ }).fill('10115');
    await page.getByRole('textbox', { name: /^City/ }).fill('Berlin');
    await expect(page.getByRole('textbox', { name: /^State/ })).toHaveValue('Berlin');
    await snap(page, 'masterdata-location-create');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Location saved')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/location\/view\/\d+$/);
  });

  test('an administrator adds a tax rate to a company; a team lead is refused', async ({ page }) => {
    await logIn(page, 'admin@demo.test');
    await page.goto('/app/table/company/view/1');
    const panel = page.getByTestId('tax-rates');
    await expect(panel.getByRole('heading', { name: 'Tax rates' })).toBeVisible();
    await panel.getByRole('textbox', { name: /^Code/ }).fill('E2E19');
    await panel.getByRole('textbox', { name: /^Rate/ }).fill('19');
    await panel.getByRole('button', { name: 'Add tax rate' }).click();
    await expect(page.getByText('Tax rate saved')).toBeVisible();
    await expect(panel.getByRole('cell', { name: 'E2E19' })).toBeVisible();
    await snap(page, 'masterdata-tax-rates');

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await logIn(page, 'team_lead@demo.test');
    await page.goto('/app/table/company/view/1');
    await expect(page.getByTestId('tax-rates').getByText('Only administrators may manage tax rates.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add tax rate' })).toHaveCount(0);
  });
});

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openAs, snap } from './helpers';

/** Picks option `name` of the Mantine select labelled `label`. */
async function choose(page: Page, label: RegExp, name: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name }).first().click();
}

test.describe('master data', () => {
  test('an administrator creates a point of sale in the modal', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos/create');
    const dialog = page.getByRole('dialog', { name: 'New point of sale' });
    await expect(dialog).toBeVisible();
    await choose(page, /^Company/, 'Südmarkt Filialen GmbH');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Südmarkt E2E');
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
    await openAs(page, 'admin@demo.test', '/app/table/location/create');
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
    await openAs(page, 'admin@demo.test', '/app/table/company/view/1');
    const panel = page.getByTestId('tax-rates');
    await expect(panel.getByRole('heading', { name: 'Tax rates' })).toBeVisible();
    await panel.getByRole('textbox', { name: /^Code/ }).fill('E2E19');
    await panel.getByRole('textbox', { name: /^Rate/ }).fill('19');
    await panel.getByRole('button', { name: 'Add tax rate' }).click();
    await expect(page.getByText('Tax rate saved')).toBeVisible();
    await expect(panel.getByRole('cell', { name: 'E2E19', exact: true })).toBeVisible();
    await snap(page, 'masterdata-tax-rates');
    // Deleting asks first.
    await panel.getByRole('button', { name: 'Delete tax rate E2E19' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tax rate' });
    await expect(confirm).toContainText('Delete the tax rate “E2E19”?');
    await confirm.getByRole('button', { name: 'Delete tax rate' }).click();
    await expect(page.getByText('Tax rate deleted')).toBeVisible();
    await expect(panel.getByRole('cell', { name: 'E2E19', exact: true })).toHaveCount(0);

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await openAs(page, 'team_lead@demo.test', '/app/table/company/view/1');
    await expect(page.getByRole('heading', { name: 'Nordhandel Retail GmbH' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Tax rates' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add tax rate' })).toHaveCount(0);
    // The server refuses them too (403): internal/masterdata's scenario tests.
  });

  test('an administrator edits a company; the address state fills itself from the zip code', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/company/view/2');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = page.getByRole('form', { name: 'Company' });
    await form.getByRole('textbox', { name: /^Short name/ }).fill('NHO2');
    await form.getByRole('textbox', { name: /^Street/ }).fill('Invalidenstraße');
    await form.getByRole('textbox', { name: /^House number/ }).fill('12');
    await form.getByRole('textbox', { name: /^Postal code/ }).fill('10115');
    await form.getByRole('textbox', { name: /^City/ }).fill('Berlin');
    await expect(form.getByRole('textbox', { name: /^State/ })).toHaveValue('Berlin');
    await snap(page, 'masterdata-company-edit');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Company saved')).toBeVisible();
    await expect(page).not.toHaveURL(/edit=true/);
    await page.reload();
    await expect(page.getByRole('textbox', { name: /^Short name/ })).toHaveValue('NHO2');
    await expect(page.getByRole('textbox', { name: /^Street/ })).toHaveValue('Invalidenstraße');
    await expect(page.getByRole('textbox', { name: /^State/ })).toHaveValue('Berlin');
  });

  test("a location's partner company is added with valid dates; valid-to before valid-from is refused on the field", async ({ page, expected }) => {
    // The server refuses the dates first (shown on the field).
    expected.response(422, /\/locations\/partnercompany$/);
    await openAs(page, 'admin@demo.test', '/app/table/location/view/2');
    const panel = page.getByTestId('location-partners');
    await expect(panel).toBeVisible();
    await choose(page, /^Partner company/, /Rheinland/);
    await choose(page, /^Partner type/, /.+/);
    await panel.getByLabel(/^Valid from/).fill('2025-01-01');
    await panel.getByLabel(/^Valid to/).fill('2024-01-01');
    await panel.getByRole('button', { name: 'Add partner company' }).click();
    await expect(panel.getByText('Valid to must be after valid from')).toBeVisible();
    await expect(panel.getByLabel(/^Valid to/)).toHaveAttribute('aria-invalid', 'true');
    await panel.getByLabel(/^Valid to/).fill('2026-12-31');
    await panel.getByRole('button', { name: 'Add partner company' }).click();
    await expect(page.getByText('Partner company added')).toBeVisible();
    await expect(panel.getByRole('cell', { name: '12/31/2026' })).toBeVisible();
    await snap(page, 'masterdata-location-partners');
  });

  test('the admin side panel is shown to the administrator and absent for a team lead', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos/view/1');
    const panel = page.getByRole('complementary', { name: 'Record details' });
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('row-version')).toHaveText(/^\d+$/);
    await panel.getByRole('link', { name: /Show the history/ }).click();
    await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    await snap(page, 'masterdata-admin-side-panel');

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await openAs(page, 'team_lead@demo.test', '/app/table/pos/view/1');
    await expect(page.getByRole('heading', { name: /Nordhandel/ })).toBeVisible();
    await expect(page.getByTestId('admin-side-panel')).toHaveCount(0);
  });
});

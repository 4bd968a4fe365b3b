import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openAs } from './helpers';

const grid = (page: Page) => page.getByRole('grid', { name: 'Invoices' });

test.describe('an invoice with several areas (a multi-select stored through a relation)', () => {
  test('the list loads and shows the areas by name; they offer no sorting', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/invoice');
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    const areas = grid(page).locator('td[data-column="area_id"]');
    await expect(areas.first()).toBeVisible();
    // Invoice 1 (demo data) lies on two areas: both names, joined.
    await expect(areas.first()).toHaveText('Surface de vente RDC, Réserve');
    await expect(grid(page).getByRole('columnheader', { name: /^Area/ })).not.toHaveAttribute('aria-sort');
    await expect(grid(page).getByRole('button', { name: /^Area/ })).toHaveCount(0);
  });

  test('the record and the create form show the areas by name', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/invoice/view/1');
    await expect(page.getByText('Surface de vente RDC', { exact: true })).toBeVisible();
    await expect(page.getByText('Réserve', { exact: true })).toBeVisible();

    // The create page offers the chosen contract's areas by name.
    await page.goto('/app/table/invoice/create');
    // Contracts are offered once the company is chosen.
    await page.getByRole('region', { name: 'Header' }).getByRole('combobox', { name: /^Company/ }).click();
    await page.getByRole('option', { name: 'Nordhandel Retail GmbH' }).first().click();
    const contract = page.getByRole('region', { name: 'Contract and areas' });
    await contract.getByRole('combobox', { name: /^Contract/ }).click();
    await page.getByRole('option', { name: /^(?!E2E)/ }).first().click();
    const area = contract.getByTestId('invoice-areas').getByRole('checkbox').first();
    await expect(area).toBeVisible();
    const name = (await area.getAttribute('aria-label')) ?? (await contract.getByTestId('invoice-areas').locator('label').first().textContent()) ?? '';
    expect(name.trim()).not.toBe('');
    expect(name).not.toMatch(/^\d+$/);
  });
});

import { type Locator, type Page } from '@playwright/test';
import { expect as baseExpect, expectAccessible, test } from './fixtures';
import { openAs, snap } from './helpers';

/** Lazy chunks and saves on a shared, busy machine: allow time. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ actionTimeout: 60_000, navigationTimeout: 120_000 });

async function setSkin(page: Page, skin: 'light' | 'dark') {
  const button = page.getByRole('button', { name: skin === 'dark' ? 'Switch to dark skin' : 'Switch to light skin' });
  if (await button.isVisible()) await button.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
}

/** Picks the first option (or the one named `option`) of a list field. */
async function choose(page: Page, scope: Locator, label: RegExp, option?: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', option ? { name: option } : undefined).first().click();
}

/** Types a date (DD.MM.YYYY) into a date field and leaves it. */
async function typeDate(scope: Locator, label: RegExp, date: string) {
  const input = scope.getByRole('textbox', { name: label });
  await input.fill(date);
  await input.press('Tab');
}

test('an administrator creates an invoice on its own page (header, billing period, contract and areas, value types) and lands on the invoice page, in both skins', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openAs(page, 'admin@demo.test', '/app/table/invoice');
  // A value type to pick (the demo data has none), through the generic API.
  const token = await page.evaluate(() => localStorage.getItem('portfolio.access_token'));
  const unit = await page.request.post('/api/?unit', { headers: { Authorization: `Bearer ${token}` }, data: { action: 'read-rich', entity: 'unit', per_page: 1 } });
  const unitId = ((await unit.json()) as { data: { data: { unit_id: number }[] } }).data.data[0].unit_id;
  const valueType = `Heizgradtage ${Date.now() % 100000}`;
  const made = await page.request.post('/api/?invoicevaluetype', {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'create', entity: 'invoicevaluetype', data: { invoicevaluetype_name: valueType, unit_id: unitId } },
  });
  expect(made.status()).toBe(201);

  await page.goto('/app/table/invoice/create');
  await expect(page.getByRole('heading', { name: 'New invoice', level: 1 })).toBeVisible();
  await snap(page, 'invoice-create-empty-light');
  const header = page.getByRole('region', { name: 'Header' });
  const number = `NK-E2E-${Date.now() % 100000}`;
  await header.getByRole('textbox', { name: /^Invoice number/ }).fill(number);
  await typeDate(header, /^Invoice date/, '03/15/2025');
  await typeDate(header, /^Order date/, '03/01/2025');
  await header.getByRole('textbox', { name: /^Contract year/ }).fill('2024');
  await choose(page, header, /^Company/, 'Nordhandel Retail GmbH');
  await choose(page, header, /^Partner type/);
  await typeDate(header, /^Payment date/, '04/15/2025');
  await header.getByRole('textbox', { name: /^Allocation area/ }).fill('120');
  const period = page.getByRole('region', { name: 'Billing period' });
  await typeDate(period, /^Billing period from/, '01/01/2024');
  await typeDate(period, /^Billing period to/, '12/31/2024');
  const contract = page.getByRole('region', { name: 'Contract and areas' });
  // A contract with areas: the demo's have them, contracts other specs create
  // (named "E2E …", first in the list) may not.
  await choose(page, contract, /^Contract/, /^(?!E2E)/);
  const areas = contract.getByTestId('invoice-areas');
  await expect(areas).toBeVisible();
  await areas.getByRole('checkbox').first().check();
  const types = page.getByRole('region', { name: 'Value types' });
  await types.getByRole('button', { name: 'Add value type' }).click();
  await choose(page, types, /^Value type 1/, valueType);
  await types.getByRole('textbox', { name: 'Value 1' }).fill('1,234.5');
  await snap(page, 'invoice-create-light');
  await setSkin(page, 'dark');
  await snap(page, 'invoice-create-dark');
  await expectAccessible(page, 'the invoice create page in the dark skin');

  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page).toHaveURL(/\/app\/table\/invoice\/view\/\d+$/);
  await expect(page.getByRole('heading', { name: new RegExp(number), level: 1 })).toBeVisible();
  await snap(page, 'invoice-page-new-dark');
  await expectAccessible(page, 'the new invoice page in the dark skin');
  // The demo invoice with positions and sums, and the savings, in the dark skin.
  await page.goto('/app/table/invoice/view/38');
  await expect(page.getByRole('table', { name: 'Positions' })).toBeVisible();
  await snap(page, 'invoice-demo-dark');
  await expectAccessible(page, 'the demo invoice page in the dark skin');
  await page.goto('/app/invoice-savings');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await snap(page, 'invoice-savings-dark');
  await setSkin(page, 'light');
});

import { expect as baseExpect, expectAccessible, test } from './fixtures';
import { openAs, snap } from './helpers';

/** The list loads its chunk, definition and rows on a shared, busy machine: allow time. */
const expect = baseExpect.configure({ timeout: 30_000 });

// The demo seed gives the first contracts of each customer group conditions: rent-free months, competition
// protection ("Konkurrenzschutz"), subletting ("Untervermietung") and a deposit (internal/seed/demo_criteria.go).
// The lead of Nordhandel lists criteria and reads the contracts' criteria tabs.
test('a lead filters the condition list of their contracts and opens a contract', async ({ page }) => {
  test.setTimeout(180_000);
  await openAs(page, 'lead@demo.test', '/app/condition-list');
  await expect(page.getByRole('heading', { name: 'Conditions list' })).toBeVisible();
  const grid = page.getByRole('grid');
  await expect(grid.getByText('Konkurrenzschutz').first()).toBeVisible();
  // Read-only: conditions are added and changed on the contract's criteria tab.
  await expect(page.getByRole('button', { name: 'Create', exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  await page.getByRole('search', { name: 'Filters' }).getByRole('combobox', { name: 'Criterion' }).click();
  await page.getByRole('option', { name: 'Untervermietung' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/criteria_id/);
  await expect(grid.getByText('Konkurrenzschutz')).toHaveCount(0);
  await expect(grid.getByText('Mit Zustimmung des Vermieters').first()).toBeVisible();
  const criteria = await grid.locator('td[data-column="criteria_id"]').allTextContents();
  expect(criteria.length).toBeGreaterThan(0);
  for (const shown of criteria) expect(shown.trim()).toBe('Untervermietung');
  // Every row is a contract of Nordhandel, with its point of sale.
  const stores = await grid.locator('td[data-column="contract_pos_name"]').allTextContents();
  expect(stores.every((s) => s.trim() !== '')).toBe(true);
  await snap(page, 'condition-list-filtered');
  await expectAccessible(page, 'the condition list');

  // A row opens its contract on the criteria tab, where conditions are edited.
  await grid.locator('td[data-column="criteria_id"]').first().click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/\d+\?tab=contract_criteria_rel/);
  await expect(page.getByRole('tab', { name: 'Criteria', selected: true })).toBeVisible();
  await expect(page.getByRole('tabpanel').getByText('Untervermietung').first()).toBeVisible();
});

test('a store manager without the contract lists is not shown the condition list', async ({ page }) => {
  await openAs(page, 'store_manager@demo.test', '/app/condition-list');
  await expect(page).toHaveURL(/not-authorized/);
});

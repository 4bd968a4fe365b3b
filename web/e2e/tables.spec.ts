import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { logIn, openAs, snap } from './helpers';

/** The virtual grid of a list screen. */
const grid = (page: Page, name: string) => page.getByRole('grid', { name });
const bodyRows = (page: Page, name: string) => grid(page, name).locator('tbody tr');

async function setSkin(page: Page, skin: 'light' | 'dark') {
  const button = page.getByRole('button', { name: skin === 'dark' ? 'Switch to dark skin' : 'Switch to light skin' });
  if (await button.isVisible()) await button.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
}

test.describe('generic table screens', () => {
  test('points of sale: list, search, sort, filter, bookmark, open, edit with client and server checks', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos');
    await expect(page.getByRole('heading', { name: 'Points of sale' })).toBeVisible();
    await expect(bodyRows(page, 'Points of sale').first()).toBeVisible();
    const total = Number((await page.getByLabel(/\d+ rows?$/).first().textContent())?.replace(/\D/g, ''));
    expect(total).toBeGreaterThan(5);
    await snap(page, 'table-list-light');

    // Sort by name (server side): the header says so and the URL keeps it.
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page).toHaveURL(/sort=pos_name&dir=asc/);
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
    const names = await grid(page, 'Points of sale').locator('td[data-column="pos_name"]').allTextContents();
    expect(names.length).toBeGreaterThan(2);
    // The server orders by code point (SQLite's binary collation): "É" after "S".
    expect([...names].sort()).toEqual(names);

    // Search from 2 characters, debounced.
    const firstName = names[0];
    const word = firstName.split(' ').find((w) => w.length >= 4) ?? firstName.slice(0, 4);
    await page.getByRole('textbox', { name: 'Search' }).fill(word);
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}`));
    await expect(bodyRows(page, 'Points of sale').first()).toContainText(word);

    // A filter from the panel (number range) goes into the URL too.
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('textbox', { name: 'First year', exact: true }).fill('1900');
    await expect(page).toHaveURL(/pos_first_year/);

    // Bookmarkable: a reload shows the same view.
    const url = page.url();
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(word);
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(page.url()).toBe(url);

    // Keyboard: focus the grid, move down, open with Enter.
    await page.getByRole('region', { name: 'Points of sale' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+$/);
    const recordUrl = page.url();
    await expect(page.getByRole('tab', { name: 'Locations' })).toBeVisible();
    await snap(page, 'table-view-light');

    // Edit: a client message first, then save.
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/edit=true/);
    const nameInput = page.getByRole('textbox', { name: /^Name/ });
    await nameInput.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Please correct the marked fields.' })).toBeVisible();
    await snap(page, 'table-form-light');
    const newName = `${firstName} (renamed)`;
    await nameInput.fill(newName);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: newName, level: 1 })).toBeVisible();
    await expect(page).not.toHaveURL(/edit=true/);

    // The History tab shows the change.
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByRole('table', { name: 'History' })).toContainText(newName);
    await page.getByRole('tab', { name: 'Locations' }).click();
    await expect(page.locator('[data-relation="pos_location_rel"]')).toBeVisible();
    await snap(page, 'table-relation-light');

    // The same screens in the dark skin.
    await setSkin(page, 'dark');
    await snap(page, 'table-relation-dark');
    await page.goto(`${recordUrl}?edit=true`);
    await expect(page.getByRole('textbox', { name: /^Name/ })).toHaveValue(newName);
    await snap(page, 'table-form-dark');
    await page.goto('/app/table/pos');
    await expect(bodyRows(page, 'Points of sale').first()).toBeVisible();
    await snap(page, 'table-list-dark');
    await setSkin(page, 'light');
  });

  test('the server checks what only it can know and the form shows it on the field', async ({ page, expected }) => {
    expected.response(422, /\/api\/\?currency$/);
    await openAs(page, 'admin@demo.test', '/app/table/currency/create');
    await expect(page.getByRole('heading', { name: 'New currency' })).toBeVisible();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Another euro');
    await page.getByRole('textbox', { name: /^Short/ }).fill('EU2');
    await page.getByRole('textbox', { name: /^Symbol/ }).fill('€');
    // The client's own rule first (regex with its per-field message) ...
    await page.getByRole('textbox', { name: /^ISO 4217/ }).fill('eur');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Enter the three-letter ISO 4217 code, e.g. EUR.')).toBeVisible();
    // ... then the server's: the code is taken.
    await page.getByRole('textbox', { name: /^ISO 4217/ }).fill('EUR');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('ISO 4217 code is already used by another record')).toBeVisible();
    await expect(page).toHaveURL(/\/currency\/create$/);
  });

  test('a list field creates a related element in the popup route and the opener selects it', async ({ page, context }) => {
    // The generic create form of a sales order (points of sale, contact persons and contracts have their own pages).
    await openAs(page, 'admin@demo.test', '/app/table/salesorder/create');
    const dialog = page.locator('form').first();
    await expect(dialog).toBeVisible();

    // First the inline sub-form: it creates the company at once and selects it.
    await dialog.getByRole('button', { name: 'New element for Company' }).click();
    await page.getByRole('menuitem', { name: 'Create New Element' }).click();
    const sub = dialog.getByRole('group', { name: 'Create New Element: Company' });
    await expect(sub).toBeVisible();
    const inlineName = `Inline Handel ${Date.now() % 100000} AG`;
    await sub.getByRole('combobox', { name: /^Customer group/ }).click();
    await page.getByRole('option').first().click();
    await sub.getByRole('textbox', { name: 'Company', exact: true }).fill(inlineName);
    await sub.getByRole('textbox', { name: /^Short name/ }).fill('IH');
    await snap(page, 'table-inline-subform-light');
    await sub.getByRole('button', { name: 'Create' }).click();
    await expect(sub).toHaveCount(0);
    await expect(dialog.getByRole('combobox', { name: /^Company/ })).toHaveValue(inlineName);

    // Then the popup window.
    await dialog.getByRole('button', { name: 'New element for Company' }).click();
    const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Create in a new window' }).click()]);
    await popup.waitForLoadState();
    await expect(popup).toHaveURL(/\/app\/table\/company\/popup\/company_id$/);
    await expect(popup.getByRole('navigation', { name: /Main menu/ })).toHaveCount(0);
    const companyName = `Popup Handel ${Date.now() % 100000} GmbH`;
    await popup.getByRole('combobox', { name: /^Customer group/ }).click();
    await popup.getByRole('option').first().click();
    await popup.getByRole('textbox', { name: 'Company', exact: true }).fill(companyName);
    await popup.getByRole('textbox', { name: /^Short name/ }).fill('PH');
    await snap(popup, 'table-popup-light');
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Create' }).click()]);
    // The opener reloaded its list and selected the new company.
    await expect(dialog.getByRole('combobox', { name: /^Company/ })).toHaveValue(companyName);
  });

  test('a lookup table is edited in place with the keyboard', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/areatype');
    await expect(page.getByRole('heading', { name: /Area types?/ })).toBeVisible();
    const cell = page.getByRole('gridcell').filter({ hasText: 'Lagerfläche' }).first();
    await cell.dblclick();
    const editor = page.getByRole('textbox', { name: /Name/ }).last();
    await expect(editor).toBeFocused();
    await editor.fill('Lagerfläche Nord');
    await editor.press('Enter');
    await expect(page.getByText('Value updated')).toBeVisible();
    await expect(page.getByRole('gridcell').filter({ hasText: 'Lagerfläche Nord' })).toBeVisible();
    // Escape cancels.
    await page.getByRole('gridcell').filter({ hasText: 'Lagerfläche Nord' }).dblclick();
    await page.getByRole('textbox', { name: /Name/ }).last().fill('thrown away');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('gridcell').filter({ hasText: 'Lagerfläche Nord' })).toBeVisible();
  });

  test('the current view is exported to CSV by the server', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos?sort=pos_name&dir=asc&cols=pos_name,pos_branchnumber');
    await expect(bodyRows(page, 'Points of sale').first()).toBeVisible();
    const firstName = await grid(page, 'Points of sale').locator('td[data-column="pos_name"]').first().textContent();
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Current view as CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const text = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/Name/);
    expect(lines[0]).toMatch(/Branch number/);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines[1]).toContain(firstName ?? '');
  });

  test('a relation tab links a row with the link attributes and ends the link', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/contract/view/2');
    await page.getByRole('tab', { name: 'Partner companies' }).click();
    const panel = page.locator('[data-relation="contract_partner_company_rel"]');
    await expect(panel.getByText('Nothing linked yet')).toBeVisible();
    await panel.getByRole('button', { name: 'Add link' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: /^Partner companies/ }).click();
    await page.getByRole('option', { name: 'Rheinland Immobilien GmbH' }).click();
    await dialog.getByRole('combobox', { name: /^Partner role/ }).click();
    await page.getByRole('option', { name: 'Owner' }).click();
    await dialog.getByRole('button', { name: 'Add link' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Linked', { exact: true })).toBeVisible();
    await expect(panel.getByRole('gridcell', { name: 'Rheinland Immobilien GmbH' })).toBeVisible();
    await snap(page, 'table-relation-link-light');
    await panel.getByRole('checkbox', { name: 'Select row' }).first().check();
    await panel.getByRole('button', { name: 'End link' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End link' }).click();
    await expect(page.getByText('Link ended')).toBeVisible();
  });

  test('a view is saved and applied again; leaving an edited form asks first', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos?sort=pos_branchnumber&dir=desc&cols=pos_branchnumber,pos_name');
    await expect(bodyRows(page, 'Points of sale').first()).toBeVisible();
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: 'Save the current view' }).click();
    await page.getByRole('textbox', { name: 'Name of the view' }).fill('Branches, newest first');
    await page.getByRole('dialog').getByText('Everyone').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('View “Branches, newest first” saved')).toBeVisible();
    await page.goto('/app/table/pos');
    await expect(page.getByRole('columnheader', { name: /^Company/ })).toBeVisible();
    await page.getByRole('button', { name: 'Views' }).click();
    await page.getByRole('menuitem', { name: /Branches, newest first/ }).click();
    await expect(page).toHaveURL(/sort=pos_branchnumber&dir=desc/);
    await expect(page).toHaveURL(/cols=pos_branchnumber%2Cpos_name/);
    await expect(page.getByRole('columnheader', { name: /^Company/ })).toHaveCount(0);
    // The applied view is named above the list; sorting away from it clears the name.
    await expect(page.getByTestId('saved-views')).toHaveText('View: Branches, newest first');
    await page.getByTestId('saved-views').click();
    await expect(page.getByRole('menuitem', { name: /Branches, newest first/ })).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Escape');
    await page.goto('/app/table/pos?sort=pos_branchnumber&dir=asc&cols=pos_branchnumber,pos_name');
    await expect(page.getByTestId('saved-views')).toHaveText('Views');

    // Unsaved changes are not lost silently.
    await page.goto('/app/table/pos/view/2?edit=true');
    await page.getByRole('textbox', { name: /^External name/ }).fill('Draft');
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await expect(page).toHaveURL(/\/view\/2\?edit=true/);
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page).toHaveURL(/\/app\/table\/pos$/);
  });

  test('selected rows are deleted together after a confirmation; a row still in use is refused', async ({ page, expected }) => {
    expected.response(409, /\/api\/\?company$/);
    await logIn(page, 'admin@demo.test');
    const token = await page.evaluate(() => localStorage.getItem('portfolio.access_token'));
    for (const name of ['Bulk tag A', 'Bulk tag B']) {
      const answer = await page.request.post('/api/?tag', {
        headers: { Authorization: `Bearer ${token}` },
        data: { action: 'create', entity: 'tag', data: { tag_name: name } },
      });
      expect(answer.status()).toBe(201);
    }
    await page.goto('/app/table/tag?q=Bulk');
    await expect(bodyRows(page, 'Tags')).toHaveCount(2);
    await page.getByRole('checkbox', { name: 'Select all rows' }).check();
    await page.getByRole('button', { name: 'Delete 2 rows' }).click();
    await expect(page.getByRole('dialog')).toContainText('Delete the 2 selected rows?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('2 rows deleted')).toBeVisible();
    await expect(page.getByText('No rows match the filter')).toBeVisible();

    // A company that points of sale still refer to stays, and the toast says why.
    await page.goto('/app/table/company');
    await grid(page, 'Companies').getByRole('checkbox', { name: 'Select row' }).first().check();
    await page.getByRole('button', { name: 'Delete 1 row' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(/still used by/)).toBeVisible();
  });
});


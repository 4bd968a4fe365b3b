import { type Locator, type Page } from '@playwright/test';
import { expect as baseExpect, expectAccessible, test } from './fixtures';
import { logIn, openAs, snap } from './helpers';

/** Each step loads a new page chunk and saves on a shared, busy machine: allow time. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** A small but real PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function setSkin(page: Page, skin: 'light' | 'dark') {
  const button = page.getByRole('button', { name: skin === 'dark' ? 'Switch to dark skin' : 'Switch to light skin' });
  if (await button.isVisible()) await button.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
}

/** Picks the first option (or the one named `option`) of a list field. */
async function choose(page: Page, scope: Locator, label: RegExp, option?: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('option', option ? { name: option } : undefined);
  await options.first().click();
}

/** Types a date (DD.MM.YYYY) into a date field and leaves it. */
async function typeDate(scope: Locator, label: RegExp, date: string) {
  const input = scope.getByRole('textbox', { name: label });
  await input.fill(date);
  await input.press('Tab');
}

test('an administrator creates a contract in three steps and adds a deadline whose notice date shows at once', async ({ page }) => {
  // Three steps and a deadline on a loaded machine.
  test.setTimeout(240_000);
  await logIn(page, 'admin@demo.test');
  // The demo data holds what a payment needs: tax rates of the demo
  // companies, payment types, ledger accounts, maturity types and document
  // roles (internal/seed).
  await page.goto('/app/table/contract/create');
  await expect(page.getByRole('heading', { name: 'New contract', level: 1 })).toBeVisible();
  const basic = page.getByRole('form', { name: 'Basic data' });
  await snap(page, 'contract-step1-empty-light');
  const name = `E2E Mietvertrag ${Date.now() % 100000}`;
  await basic.getByRole('textbox', { name: /^Name/ }).fill(name);
  await choose(page, basic, /^Contract type/);
  await choose(page, basic, /^Company/, 'Nordhandel Retail GmbH');
  await choose(page, basic, /^Point of sale/);
  await choose(page, basic, /^Location/);
  // Another point of sale: the location chosen for the first one goes at once (not on save),
  // and only the new point of sale's location is offered.
  const location = basic.getByRole('combobox', { name: /^Location/ });
  await expect(location).not.toHaveValue('');
  await choose(page, basic, /^Point of sale/, 'Nordhandel Gare de Amiens');
  await expect(location).toHaveValue('');
  await location.click();
  await expect(page.getByRole('option')).toHaveText(['Gare de Amiens']);
  await page.getByRole('option', { name: 'Gare de Amiens' }).click();
  await expect(location).toHaveValue('Gare de Amiens');
  await choose(page, basic, /^Currency/);
  await typeDate(basic, /^Start date/, '01/01/2026');
  await typeDate(basic, /^End date/, '12/31/2035');
  await typeDate(basic, /^First possible end date/, '12/31/2030');
  await snap(page, 'contract-step1-light');
  await basic.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/\d+\?edit=true&step=payments/);
  await expect(page.getByRole('heading', { name: 'Edit contract', level: 1 })).toBeVisible();
  await snap(page, 'contract-step2-empty-light');

  // Step 2: one recurring payment.
  const payments = page.getByRole('form', { name: 'Recurring payments' });
  await payments.getByRole('button', { name: 'Add payment' }).click();
  const row = payments.locator('[data-payment-row="0"]');
  await row.getByRole('textbox', { name: /^Name/ }).fill('Grundmiete');
  await choose(page, row, /^Tax rate/, /^19/);
  await choose(page, row, /^Payment type/, 'Grundmiete');
  await choose(page, row, /^General ledger account/, /4210/);
  await row.getByRole('textbox', { name: /^Amount per month/ }).fill('2500');
  await typeDate(row, /^Start date/, '01/01/2026');
  await typeDate(row, /^End date/, '12/31/2035');
  await choose(page, row, /^Maturity type/, 'Fester Termin');
  await typeDate(row, /^Due date/, '01/03/2026');
  await snap(page, 'contract-step2-light');
  await payments.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(/step=documents/);
  const documents = page.getByRole('form', { name: 'Add a document' });
  await expect(documents).toBeVisible();
  await expect(page.getByText('No document is linked to this contract yet.')).toBeVisible();
  await snap(page, 'contract-step3-empty-light');

  // Step 3: a PDF uploaded and linked with its type and role.
  await choose(page, documents, /^Document type/, 'Mietvertrag');
  await choose(page, documents, /^Role in the contract/, 'Hauptvertrag');
  await documents.locator('input[type="file"]').setInputFiles({ name: 'Mietvertrag E2E.pdf', mimeType: 'application/pdf', buffer: PDF });
  await snap(page, 'contract-step3-light');
  await documents.getByRole('button', { name: 'Upload and link' }).click();
  await expect(page.getByText('The document was uploaded and linked to the contract.')).toBeVisible();
  const linked = page.getByRole('table', { name: 'Documents of this contract' });
  await expect(linked.getByRole('row', { name: /Mietvertrag E2E.*Mietvertrag.*Hauptvertrag/ })).toBeVisible();
  await snap(page, 'contract-step3-linked-light');
  await documents.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/\d+$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('contract-resiliation')).toHaveText('Pending');
  await snap(page, 'contract-view-light');
  await expectAccessible(page, 'the contract page');

  // A deadline added on the contract shows the notice date the server computed.
  await page.getByRole('tab', { name: 'Deadlines' }).click();
  const tab = page.locator('[data-relation="contract_deadlines_rel"]');
  await tab.getByRole('button', { name: 'Create' }).click();
  const dialog = page.getByRole('dialog', { name: /^Deadlines/ });
  await choose(page, dialog, /^Acting party/);
  await choose(page, dialog, /^Type/, 'Termination');
  await typeDate(dialog, /^Termination date/, '12/31/2030');
  await dialog.getByRole('textbox', { name: /^Notice period/ }).first().fill('6');
  await choose(page, dialog, /^Notice period unit/, 'Month');
  await snap(page, 'contract-deadline-create-light');
  await dialog.getByRole('textbox', { name: /^Notice period/ }).first().press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(tab.getByRole('gridcell', { name: '06/30/2030' })).toBeVisible();
  // …with its traffic light, as in the deadline list.
  await expect(tab.locator('td[data-column="traffic_light"]').getByText(/^On track · in \d+ days$/)).toBeVisible();
  // …and in the side panel's next notice date, without a reload.
  await expect(page.getByTestId('admin-side-panel')).toContainText('06/30/2030');
  await snap(page, 'contract-deadline-light');
});

test('the steps of a saved contract open from its page, in the dark skin too, and by keyboard', async ({ page }) => {
  test.setTimeout(180_000);
  await openAs(page, 'admin@demo.test', '/app/table/contract/view/1');
  await expect(page.getByTestId('contract-resiliation')).toHaveText('Pending', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/1\?edit=true/);
  await expect(page.getByRole('heading', { name: 'Edit contract', level: 1 })).toBeVisible();
  const basic = page.getByRole('form', { name: 'Basic data' });
  await expect(basic.getByRole('textbox', { name: /^Name/ })).toHaveValue(/.+/);
  await setSkin(page, 'dark');
  await snap(page, 'contract-step1-dark');
  await expectAccessible(page, 'step 1 in the dark skin');

  // Unsaved changes: moving to another step asks first.
  const nameInput = basic.getByRole('textbox', { name: /^Name/ });
  const stored = await nameInput.inputValue();
  await nameInput.fill(`${stored} (changed)`);
  await page.getByRole('button', { name: /Recurring payments/ }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).not.toHaveURL(/step=payments/);
  await nameInput.fill(stored);

  // The stepper's steps are buttons the keyboard reaches.
  await page.getByRole('button', { name: /Recurring payments/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/step=payments/);
  await expect(page.getByRole('form', { name: 'Recurring payments' })).toBeVisible();
  await snap(page, 'contract-step2-dark');
  await page.getByRole('button', { name: /Documents/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('form', { name: 'Add a document' })).toBeVisible();
  await snap(page, 'contract-step3-dark');
  await expectAccessible(page, 'step 3 in the dark skin');
  await setSkin(page, 'light');
});

test('a team member leaves step 3 with its optional document form blank, and is told what a filled one lacks', async ({ page }) => {
  await openAs(page, 'team_member@demo.test', '/app/table/contract/view/1?edit=true&step=documents');
  const documents = page.getByRole('form', { name: 'Add a document' });
  const name = documents.getByRole('textbox', { name: /^Name/ });
  await expect(name).toBeVisible();

  // Typed into and cleared again, the form is as blank as never touched: finish leaves.
  await name.fill('Nachtrag 3');
  await name.fill('');
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/1$/);
  await expect(page.getByTestId('contract-resiliation')).toBeVisible();

  // Filled in without a file: the file field says what is missing, nothing is sent, and Cancel still leaves.
  await page.goto('/app/table/contract/view/1?edit=true&step=documents');
  await name.fill('Nachtrag 3');
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(documents.getByText('Choose a PDF file.')).toBeVisible();
  await expect(page).toHaveURL(/step=documents/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/app\/table\/contract\/view\/1$/);
});

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openAs, snap } from './helpers';

/** Picks option `name` of the Mantine select labelled `label`. */
async function choose(page: Page, label: RegExp, name: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name }).first().click();
}

/** Südmarkt Filialen GmbH (demo company 3): the data these tests change stays out of Nordhandel's counts. */
const SUEDMARKT_COMPANY = 3;
/** An area of a Südmarkt location in the demo data. */
const SUEDMARKT_AREA = 45;

test.describe('master data screens', () => {
  test('an administrator creates a company with its address; the state fills itself from the zip code', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/company/create');
    await expect(page.getByRole('heading', { name: 'New company' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Company' });
    await form.getByRole('textbox', { name: /^Company name/ }).fill('Südmarkt E2E GmbH');
    await form.getByRole('textbox', { name: /^Short name/ }).fill('SME2E');
    await choose(page, /^Customer group/, 'Südmarkt Holding');
    await form.getByRole('textbox', { name: /^Street/ }).fill('Leopoldstraße');
    await form.getByRole('textbox', { name: /^House number/ }).fill('4');
    await form.getByRole('textbox', { name: /^Postal code/ }).fill('80802');
    await form.getByRole('textbox', { name: /^City/ }).fill('München');
    await expect(form.getByRole('textbox', { name: /^State/ })).toHaveValue('Bayern');
    await snap(page, 'masterdata-company-create');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Company created')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/company\/view\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Südmarkt E2E GmbH' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Street/ })).toHaveValue('Leopoldstraße');
    await expect(page.getByRole('textbox', { name: /^State/ })).toHaveValue('Bayern');
  });

  test('an administrator edits a tax rate in place; a team lead sees no edit controls', async ({ page }) => {
    await openAs(page, 'admin@demo.test', `/app/table/company/view/${SUEDMARKT_COMPANY}`);
    const panel = page.getByTestId('tax-rates');
    await panel.getByRole('textbox', { name: /^Code/ }).fill('E2EDIT');
    await panel.getByRole('textbox', { name: /^Rate/ }).fill('19');
    await panel.getByRole('button', { name: 'Add tax rate' }).click();
    await expect(page.getByText('Tax rate saved')).toBeVisible();
    await panel.getByRole('button', { name: 'Edit tax rate E2EDIT' }).click();
    const rate = panel.getByRole('textbox', { name: /^Rate/ }).first();
    await expect(panel.getByRole('textbox', { name: /^Code/ }).first()).toBeFocused();
    await rate.fill('7');
    await snap(page, 'masterdata-tax-rate-edit');
    await rate.press('Enter');
    // The demo data has its own 7 % rate (UST7): look in the edited row only.
    await expect(panel.getByRole('row', { name: /E2EDIT/ }).getByRole('cell', { name: '7 %', exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Save tax rate' })).toHaveCount(0);
    // Tidy up so other specs see the company as before.
    await panel.getByRole('button', { name: 'Delete tax rate E2EDIT' }).click();
    await page.getByRole('dialog', { name: 'Delete tax rate' }).getByRole('button', { name: 'Delete tax rate' }).click();
    await expect(page.getByText('Tax rate deleted')).toBeVisible();

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await openAs(page, 'team_lead@demo.test', `/app/table/company/view/${SUEDMARKT_COMPANY}`);
    await expect(page.getByRole('heading', { name: 'Südmarkt Filialen GmbH' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Edit tax rate/ })).toHaveCount(0);
    await expect(page.getByTestId('tax-rates')).toHaveCount(0);
  });

  test('an administrator opens an area and edits its usage dates; an end before the start is refused', async ({ page }) => {
    await openAs(page, 'admin@demo.test', `/app/table/area/view/${SUEDMARKT_AREA}`);
    await expect(page.getByRole('form', { name: 'Area' })).toBeVisible();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Area' });
    const to = form.getByLabel(/^Usage valid to/);
    await to.fill('1980-01-01');
    await expect(form.getByText('Must not be before the start of the usage')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await to.fill('2030-12-31');
    await snap(page, 'masterdata-area-edit');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Area saved')).toBeVisible();
    await expect(page).not.toHaveURL(/edit=true/);
    await page.reload();
    await expect(page.getByLabel(/^Usage valid to/)).toHaveValue('2030-12-31');
    await expect(page.getByRole('tab').first()).toBeVisible();
  });

  test('an administrator creates a contact person with an address and sees it on its page', async ({ page }) => {
    // Create, then load the page afresh: two lazy page loads with their lookups.
    test.slow();
    await openAs(page, 'admin@demo.test', '/app/table/contactperson/create');
    // The page and its lookups load lazily; a busy machine needs more than the default.
    await expect(page.getByRole('heading', { name: 'New contact person' })).toBeVisible({ timeout: 30_000 });
    const form = page.getByRole('form', { name: 'Contact person' });
    await choose(page, /^Salutation/, /Frau|Herr/);
    await form.getByRole('textbox', { name: /^First name/ }).fill('Erika');
    await form.getByRole('textbox', { name: /^Last name/ }).fill('Mustermann-E2E');
    await expect(form.getByRole('textbox', { name: /^Short name/ })).toHaveValue('EM');
    await choose(page, /^Company/, 'Südmarkt Filialen GmbH');
    await form.getByRole('textbox', { name: /^E-mail/ }).fill('erika.e2e@example.com');
    await form.getByRole('textbox', { name: /^Street/ }).fill('Leopoldstraße');
    await form.getByRole('textbox', { name: /^House number/ }).fill('12');
    await form.getByRole('textbox', { name: /^Postal code/ }).fill('80802');
    await form.getByRole('textbox', { name: /^City/ }).fill('München');
    await expect(form.getByRole('textbox', { name: /^State/ })).toHaveValue('Bayern');
    await snap(page, 'masterdata-contact-create');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Contact person created')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/contactperson\/view\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Erika Mustermann-E2E' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Erika Mustermann-E2E' })).toBeVisible({ timeout: 30_000 });
    const saved = page.getByRole('form', { name: 'Contact person' });
    await expect(saved.getByRole('textbox', { name: /^Short name/ })).toHaveValue('EM');
    await expect(saved.getByRole('textbox', { name: /^E-mail/ })).toHaveValue('erika.e2e@example.com');
    await expect(saved.getByRole('textbox', { name: /^Street/ })).toHaveValue('Leopoldstraße');
    await expect(saved.getByRole('textbox', { name: /^State/ })).toHaveValue('Bayern');
    await expect(saved.getByRole('textbox', { name: /^First name/ })).toHaveAttribute('readonly', '');
  });
});


import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from './fixtures';
import { DEMO_PASSWORD, snap } from './helpers';

/** Room for lazy chunks and the server on a busy machine. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ actionTimeout: 60_000, navigationTimeout: 120_000 });

/** NK-DEMO-2024 of the demo data: every generator rule fires on it (decision 0016). */
const DEMO_INVOICE = 38;

const HEADINGS = 'Name;Cost type;Total units;Customer units;Flat rate;Amount total;Amount customer;Apportionable;External cost type\n';
const csv = (rows: string) => ({ name: 'positions.csv', mimeType: 'text/csv', buffer: Buffer.from(HEADINGS + rows) });

test('an administrator reviews a demo invoice: switches a position inline, runs the generator, packs the contradiction, downloads the letter and imports positions', async ({
  page,
  expected,
}) => {
  test.setTimeout(400_000);
  // Customer units above the total are refused by the server (422 on the field).
  expected.response(422, /\/api\/\?invoiceposition$/);
  // The login form, with room for a slow password hash on a busy machine.
  await page.goto('/login');
  await page.getByLabel(/^Email/).fill('admin@demo.test');
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).not.toHaveURL(/\/login$/, { timeout: 60_000 });

  // The invoice page.
  await page.goto(`/app/table/invoice/view/${DEMO_INVOICE}`);
  await expect(page.getByRole('heading', { name: /NK-DEMO-2024/, level: 1 })).toBeVisible();
  await expect(page.getByTestId('invoice-sum-total')).toHaveText('41,380.00');
  await expect(page.getByTestId('invoice-sum-customer')).toHaveText('7,170.50');
  const positions = page.getByRole('table', { name: 'Positions' });
  await expect(positions.getByRole('link', { name: 'Winterdienst' })).toBeVisible();

  // Apportionable switched inline through the generic field update.
  const apportionable = positions.getByRole('switch', { name: 'Apportionable: Winterdienst' });
  await expect(apportionable).not.toBeChecked();
  await apportionable.click({ force: true });
  await expect(page.getByText('Value updated').first()).toBeVisible();
  await expect(apportionable).toBeChecked();
  await apportionable.click({ force: true });
  await expect(apportionable).not.toBeChecked();

  // Customer units above the total units: the server's message on the field, nothing changed.
  const units = positions.getByRole('textbox', { name: /: Grundsteuer$/ });
  await units.fill('5000');
  await units.press('Enter');
  await expect(positions.getByText(/must be lower than/)).toBeVisible();

  // The contradiction generator.
  await page.getByRole('button', { name: 'Run contradiction generator' }).click();
  await expect(page.getByText('Contradictions generated')).toBeVisible();
  const contradiction = page.getByRole('table', { name: 'NK-DEMO-2024' });
  await expect(contradiction.getByTestId('contradiction-point').first()).toBeVisible();
  expect(await contradiction.getByTestId('contradiction-point').count()).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId('invoice-sum-claimed')).not.toHaveText('0.00');

  // A package of the invoice's point of sale with that contradiction.
  await page.goto('/app/table/custom/contracdictionpackage/create');
  const pos = page.getByRole('combobox', { name: /^Point of sale/ });
  await pos.click();
  await pos.fill('Gare de Amiens');
  await page.getByRole('option', { name: 'Nordhandel Gare de Amiens' }).click();
  await page.getByRole('textbox', { name: /^Name/ }).fill('Widerspruch 2024 Amiens');
  await page.getByRole('checkbox', { name: 'NK-DEMO-2024' }).check();
  await expect(page.getByTestId('picked-summary')).toContainText('1 picked');
  await page.getByRole('button', { name: 'Create package' }).click();
  await expect(page).toHaveURL(/\/app\/table\/custom\/contracdictionpackage\/view\/\d+$/);
  await expect(page.getByRole('heading', { name: /Widerspruch 2024 Amiens/ })).toBeVisible();
  await expect(page.getByTestId('package-count')).toHaveText('1');
  await expect(page.getByRole('checkbox', { name: 'NK-DEMO-2024' })).toBeChecked();

  // The letter in French, a real PDF. NK-DEMO-2024's objection deadline
  // passed (received 2025-04-20, decision 0062): the page says so and asks
  // before the letter goes out.
  await expect(page.getByTestId('letter-late')).toHaveText(/1 statement is past its objection deadline/);
  await page.getByText('Français', { exact: true }).click();
  await page.getByRole('button', { name: 'Download letter (PDF)' }).click();
  const late = page.getByRole('dialog', { name: 'Objection deadline passed' });
  await expect(late).toContainText('NK-DEMO-2024: objections were due by 04/20/2026');
  await snap(page, 'package-letter-late');
  const [download] = await Promise.all([page.waitForEvent('download'), late.getByRole('button', { name: 'Download the letter anyway' }).click()]);
  expect(download.suggestedFilename()).toMatch(/-fr\.pdf$/);
  const saved = await download.path();
  const pdf = await readFile(saved);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // Positions imported into the invoice: a file with a bad row shows the row's error and writes nothing.
  await page.goto(`/app/table/invoiceposition/import/${DEMO_INVOICE}`);
  await expect(page.getByRole('heading', { name: 'Import positions into NK-DEMO-2024' })).toBeVisible();
  const file = page.locator('input[type="file"]');
  await file.setInputFiles(csv('Hauswart E2E;Hausmeister;100;10;0;1000;100;1;Hauswart und Haustechnik\nZu viele Einheiten;Hausmeister;10;20;0;100;200;1;Hauswart und Haustechnik\n'));
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('1 row with errors')).toBeVisible();
  await expect(page.getByText(/must be lower than/)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Import \d+ rows?$/ })).toBeDisabled();

  // Then a good one: every row written into the invoice.
  await file.setInputFiles(csv('Hauswart E2E;Hausmeister;100;10;0;1000;100;1;Hauswart und Haustechnik\nAufzug E2E;Hausmeister;50;5;1;500;50;1;Hauswart und Haustechnik\n'));
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(page.getByText('2 rows valid')).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByText('2 records imported.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the invoice' }).click();
  await expect(positions.getByRole('link', { name: 'Aufzug E2E' })).toBeVisible();
  await expect(positions.getByRole('link', { name: 'Hauswart E2E' })).toBeVisible();
});

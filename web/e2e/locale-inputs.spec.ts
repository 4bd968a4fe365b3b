import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openAs, snap } from './helpers';

/**
 * Issue 38: dates and amounts typed as the interface language writes them,
 * kept as typed when they are no date or number, and shown in the same
 * format after saving. The demo's first recurring payment ("Grundmiete",
 * 5,000.00 a month until 12/31/2033, not indexed) is edited in German and
 * put back in French.
 */
const PAYMENT = '/app/table/recurringpayment/view/1';

/** Opens `path` as the demo team member with the interface in `lang`. */
async function openIn(page: Page, lang: 'de' | 'fr', path: string) {
  await openAs(page, 'team_member@demo.test', '/readyz');
  await page.evaluate((value) => window.localStorage.setItem('portfolio.language', value), lang);
  await page.goto(path);
}

/** A full-page picture from the top (the sticky header would cover the form's middle otherwise). */
async function snapTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
}

test('a team member types German dates and amounts, sees them kept after a reload, and puts them back in French', async ({ page }) => {
  test.setTimeout(180_000);
  await openIn(page, 'de', `${PAYMENT}?edit=true`);
  const form = page.getByRole('form', { name: 'Datensatz' });
  const amount = form.getByRole('textbox', { name: /^Betrag pro Monat/ });
  const end = form.getByRole('textbox', { name: /^Ende/ });
  const save = form.getByRole('button', { name: 'Speichern' });
  await expect(amount).toHaveValue('5000,00', { timeout: 30_000 });
  await expect(end).toHaveValue('31.12.2033');
  await expect(end).toHaveAttribute('placeholder', 'TT.MM.JJJJ');

  // An American date in a German form was once read as 12.07.2033: now it stays as typed and is refused.
  await amount.fill('1.234,56');
  await end.fill('12/31/2031');
  await end.press('Tab');
  await save.click();
  await expect(form.getByText('Kein gültiges Datum: bitte im Format TT.MM.JJJJ eingeben')).toBeVisible();
  await expect(end).toHaveValue('12/31/2031');
  await expect(amount).toHaveValue('1234,56');
  await snapTop(page, 'locale-inputs-de-invalid-date');

  // An end before the start (01.01.2024) stays in the field and says why.
  await end.fill('31.12.2023');
  await save.click();
  await expect(form.getByText('Dieses Datum muss nach Beginn liegen')).toBeVisible();
  await expect(end).toHaveValue('31.12.2023');
  await snapTop(page, 'locale-inputs-de-end-before-start');

  // A German 12.5 is no number: kept as typed with an example of one.
  await amount.fill('12.5');
  await end.fill('31.12.2031');
  await save.click();
  await expect(form.getByText('Keine gültige Zahl: bitte wie 1.234,56 eingeben')).toBeVisible();
  await expect(amount).toHaveValue('12.5');

  await amount.fill('1.234,56');
  await save.click();
  await expect(page.getByText('Gespeichert').first()).toBeVisible();

  // After a reload the detail view shows the amount with its thousands, the list too.
  await page.goto(PAYMENT);
  const view = page.getByRole('form', { name: 'Datensatz' });
  await expect(view.getByRole('textbox', { name: /^Betrag pro Monat/ })).toHaveValue('1.234,56', { timeout: 30_000 });
  await expect(view.getByRole('textbox', { name: /^Ende/ })).toHaveValue('31.12.2031');
  await expect(view.getByRole('textbox', { name: /^Beginn/ })).toHaveValue('01.01.2024');
  await snap(page, 'locale-inputs-de-saved');
  await page.goto('/app/table/recurringpayment');
  // The payment's row, by its contract (other specs add payments named Grundmiete to contracts of their own).
  const row = page.getByRole('row').filter({ hasText: 'Saint-Brieuc' }).filter({ hasText: 'Grundmiete' });
  await expect(row).toContainText('1.234,56', { timeout: 30_000 });
  await expect(row).toContainText('31.12.2031');
  await snap(page, 'locale-inputs-de-list');

  // In French: the decimal comma and spaces between thousands; the old values go back.
  await page.evaluate(() => window.localStorage.setItem('portfolio.language', 'fr'));
  await page.goto(`${PAYMENT}?edit=true`);
  const fr = page.getByRole('form', { name: 'Enregistrement' });
  const montant = fr.getByRole('textbox', { name: /^Montant mensuel/ });
  const fin = fr.getByRole('textbox', { name: /^Date de fin/ });
  await expect(montant).toHaveValue('1234,56', { timeout: 30_000 });
  await expect(fin).toHaveValue('31/12/2031');
  await expect(fin).toHaveAttribute('placeholder', 'JJ/MM/AAAA');
  await montant.fill('5 000');
  await fin.fill('31/12/2033');
  await fr.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Enregistré').first()).toBeVisible();
  await page.goto(PAYMENT);
  const frView = page.getByRole('form', { name: 'Enregistrement' });
  await expect(frView.getByRole('textbox', { name: /^Montant mensuel/ })).toHaveValue('5\u202f000,00', { timeout: 30_000 });
  await expect(frView.getByRole('textbox', { name: /^Date de fin/ })).toHaveValue('31/12/2033');
  await snap(page, 'locale-inputs-fr-saved');
});

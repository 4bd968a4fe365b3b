import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { type Browser, type Page, type Response } from '@playwright/test';
import { type Expected, expect, test } from './fixtures';
import { ARTIFACTS, logIn, openAs, snap } from './helpers';

/** The virtual grid of a list screen. */
const grid = (page: Page, name: string) => page.getByRole('grid', { name });
const bodyRows = (page: Page, name: string) => grid(page, name).locator('tbody tr');

async function setSkin(page: Page, skin: 'light' | 'dark') {
  const button = page.getByRole('button', { name: skin === 'dark' ? 'Switch to dark skin' : 'Switch to light skin' });
  if (await button.isVisible()) await button.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
  await page.mouse.move(640, 700); // no tooltip on the pictures
}

/** A full-page picture from the top (a scrolled page comes out shifted under the fixed header). */
async function snapPage(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
}

/**
 * Saves what the window shows to e2e/artifacts/<name>.png. Dialogs are taken
 * this way: a full-page picture stretches the page under the fixed shell.
 */
async function snapView(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`) });
}

/** The number of rows the list says it shows ("12 rows"). */
async function rowCount(page: Page): Promise<number> {
  const label = page.getByLabel(/^\d+ rows?$/).first();
  await expect(label).toBeVisible();
  return Number((await label.textContent())?.replace(/\D/g, ''));
}

/** The files of a zip archive (read through its central directory), inflated. */
function unzip(buffer: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('no end of central directory: not a zip');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = buffer.readUInt16LE(at + 10);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/** Waits for the successful answer of the generic API's export (a 401 of an expired token is retried). */
function exportAnswer(page: Page): Promise<Response> {
  return page.waitForResponse((r) => r.ok() && r.url().includes('/api/?') && r.request().postDataJSON()?.action === 'export');
}

/** A second person, logged in in a browser of their own, on `path`. */
async function otherPerson(browser: Browser, email: string, expected: Expected, path: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  expected.watch(context);
  const page = await context.newPage();
  await openAs(page, email, path);
  return page;
}

test.describe('generic screens, continued', () => {
  test('the current, filtered view is exported to CSV and XLSX by the server', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/pos?sort=pos_name&dir=asc&cols=pos_name,pos_branchnumber');
    await expect(bodyRows(page, 'Points of sale').first()).toBeVisible();
    const all = await rowCount(page);
    // A word of the first name narrows the list without emptying it.
    const first = (await grid(page, 'Points of sale').locator('td[data-column="pos_name"]').first().textContent()) ?? '';
    const word = first.split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w)) ?? first.slice(0, 4);
    const filter = [['pos_name', 'contains', word]];
    await page.goto(`/app/table/pos?sort=pos_name&dir=asc&cols=pos_name,pos_branchnumber&f=${encodeURIComponent(JSON.stringify(filter))}`);
    await expect(bodyRows(page, 'Points of sale').first()).toContainText(word);
    const shown = await rowCount(page);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(all);
    const names = await grid(page, 'Points of sale').locator('td[data-column="pos_name"]').allTextContents();
    const today = /^pos-\d{4}-\d{2}-\d{2}\./;

    // CSV: the file the server made, under its name, with exactly the filtered rows.
    await page.getByRole('button', { name: 'Export' }).click();
    const [csv, csvAnswer] = await Promise.all([
      page.waitForEvent('download'),
      exportAnswer(page),
      page.getByRole('menuitem', { name: 'Current view as CSV' }).click(),
    ]);
    expect(csvAnswer.request().postDataJSON()).toMatchObject({ format: 'csv', filter: [{ field: 'pos_name', op: 'contains', value: word }] });
    expect(csvAnswer.headers()['content-type']).toMatch(/^text\/csv/);
    expect(csvAnswer.headers()['content-disposition']).toMatch(/attachment; filename="?pos-\d{4}-\d{2}-\d{2}\.csv/);
    expect(csv.suggestedFilename()).toMatch(new RegExp(`${today.source}csv$`));
    const text = readFileSync(await csv.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff); // UTF-8 with a byte order mark
    const lines = text.replace(/^\uFEFF/, '').trim().split(/\r\n/);
    expect(lines[0]).toBe('Name,Branch number');
    expect(lines).toHaveLength(shown + 1);
    for (const line of lines.slice(1)) expect(line.toLowerCase()).toContain(word.toLowerCase());
    expect(lines[1]).toContain(names[0]);
    await expect(page.getByText(/^Saved pos-.*\.csv$/)).toBeVisible();

    // XLSX: a zip with a worksheet holding the same rows.
    await page.getByRole('button', { name: 'Export' }).click();
    const [xlsx, xlsxAnswer] = await Promise.all([
      page.waitForEvent('download'),
      exportAnswer(page),
      page.getByRole('menuitem', { name: 'Current view as Excel (XLSX)' }).click(),
    ]);
    expect(xlsxAnswer.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.suggestedFilename()).toMatch(new RegExp(`${today.source}xlsx$`));
    const bytes = readFileSync(await xlsx.path());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const files = unzip(bytes);
    const sheets = [...files.keys()].filter((name) => name.startsWith('xl/worksheets/') && name.endsWith('.xml'));
    expect(sheets).toHaveLength(1);
    const cells = files.get(sheets[0])!.toString('utf8') + (files.get('xl/sharedStrings.xml')?.toString('utf8') ?? '');
    expect(cells).toContain('Branch number');
    for (const name of names.slice(0, 5)) expect(cells).toContain(name.replace(/&/g, '&amp;'));
    expect(cells.match(/<row\b/g)).toHaveLength(shown + 1);
  });

  test('a stale edit says someone else changed the record; reloading shows their change', async ({ page, browser, expected }) => {
    // The stale save is refused (409 Conflict); the page offers to reload.
    expected.response(409, /\/api\/\?partnercompany$/);
    await openAs(page, 'admin@demo.test', '/app/table/partnercompany/view/1?edit=true');
    const name = page.getByRole('textbox', { name: /^Name/ });
    await expect(name).not.toHaveValue('');
    await name.fill('Mine');

    // Meanwhile someone else opens the same record in their browser and saves a change.
    const theirs = `Partner ${Date.now() % 100000}`;
    const other = await otherPerson(browser, 'admin@demo.test', expected, '/app/table/partnercompany/view/1?edit=true');
    const otherName = other.getByRole('textbox', { name: /^Name/ });
    await expect(otherName).not.toHaveValue('');
    await otherName.fill(theirs);
    await other.getByRole('button', { name: 'Save' }).click();
    await expect(other.getByText('Saved', { exact: true })).toBeVisible();
    await other.context().close();

    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'The record was changed' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Someone else changed this record');
    await snapView(page, 'table-stale-light');
    await dialog.getByRole('button', { name: 'Reload the record' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(name).toHaveValue(theirs);
    // Now it saves on top of their version.
    await name.fill(`${theirs} Nord`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: `${theirs} Nord`, level: 1 })).toBeVisible();
    // Other specs know the demo partner company by its name: give it back.
    await page.goto('/app/table/partnercompany/view/1?edit=true');
    await name.fill('Rheinland Immobilien GmbH');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { name: 'Rheinland Immobilien GmbH', level: 1 })).toBeVisible();
  });

  test('in German: the list, the form labels and a validation message', async ({ page }) => {
    await logIn(page, 'admin@demo.test');
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');

    await page.goto('/app/table/pos');
    await expect(page.getByRole('heading', { name: 'Filialen' })).toBeVisible();
    await expect(bodyRows(page, 'Filialen').first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: /^Filialnummer/ })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Suchen' })).toBeVisible();
    await expect(page.getByLabel(/^\d+ Zeilen?$/).first()).toBeVisible();
    await page.getByRole('button', { name: 'Exportieren' }).click();
    await expect(page.getByRole('menuitem', { name: 'Aktuelle Ansicht als CSV' })).toBeVisible();
    await page.keyboard.press('Escape');
    await snap(page, 'table-list-de');

    await page.goto('/app/table/pos/view/2?edit=true');
    await expect(page.getByRole('textbox', { name: /^Externer Name/ })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Filialnummer/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Standorte' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Verlauf' })).toBeVisible();
    await page.getByRole('textbox', { name: /^Name/ }).fill('');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Name ist erforderlich')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Bitte korrigieren Sie die markierten Felder.' })).toBeVisible();
    await snap(page, 'table-form-de');
  });

  test('a has-many row is edited in a modal from its tab', async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/location/view/1');
    await page.getByRole('tab', { name: 'Areas' }).click();
    const panel = page.locator('[data-relation="location_areas_rel"]');
    const row = panel.getByRole('gridcell', { name: 'Réserve', exact: true });
    await expect(row).toBeVisible();
    await snapPage(page, 'relation-tab-light');

    await row.click();
    const dialog = page.getByRole('dialog', { name: 'Areas: Réserve' });
    await expect(dialog).toBeVisible();
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    await expect(name).toHaveValue('Réserve');
    // The served rules: a required field left empty is refused before sending.
    await name.fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await name.fill('Réserve Nord');
    await snapView(page, 'relation-edit-modal-light');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await expect(panel.getByRole('gridcell', { name: 'Réserve Nord', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/location\/view\/1$/);

    // The same in the dark skin; closing with unsaved changes asks first.
    await setSkin(page, 'dark');
    await snapPage(page, 'relation-tab-dark');
    await panel.getByRole('gridcell', { name: 'Réserve Nord', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Areas: Réserve Nord' });
    await again.getByRole('textbox', { name: /^External name/ }).fill('Lager');
    await snapView(page, 'relation-edit-modal-dark');
    await again.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect(again).toHaveCount(0);
    await setSkin(page, 'light');

    // The area itself carries the change.
    await page.goto('/app/table/area/view/2');
    await expect(page.getByRole('heading', { name: /Réserve Nord/, level: 1 })).toBeVisible();
  });

  test("a link's attributes are changed in a modal from its tab", async ({ page }) => {
    await openAs(page, 'admin@demo.test', '/app/table/contract/view/1');
    await page.getByRole('tab', { name: 'Cost types' }).click();
    const panel = page.locator('[data-relation="contract_costtype_rel"]');
    await panel.getByRole('button', { name: 'Add link' }).click();
    const add = page.getByRole('dialog');
    await add.getByRole('combobox', { name: /^Cost types/ }).click();
    // The demo contract agrees on the cost types its invoices charge; administration costs are not among them.
    await page.getByRole('option', { name: 'Verwaltungskosten' }).click();
    await add.getByRole('textbox', { name: /^Comment/ }).fill('nach Fläche');
    await add.getByRole('button', { name: 'Add link' }).click();
    await expect(add).toHaveCount(0);
    const row = panel.getByRole('gridcell', { name: 'Verwaltungskosten', exact: true });
    await expect(row).toBeVisible();

    await row.click();
    const dialog = page.getByRole('dialog', { name: 'Cost types: Verwaltungskosten' });
    await expect(dialog.getByRole('textbox', { name: /^Comment/ })).toHaveValue('nach Fläche');
    await dialog.getByRole('textbox', { name: /^Comment/ }).fill('nach Verbrauch');
    await snapView(page, 'relation-link-modal-light');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    await expect(panel.getByRole('gridcell', { name: 'nach Verbrauch' })).toBeVisible();
    // The change is in the contract's history.
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByRole('table', { name: 'History' })).toContainText('nach Verbrauch');
  });
});

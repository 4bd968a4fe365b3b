import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { logIn, snap } from './helpers';

/** A small but real PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test('a PDF is uploaded in the documents tab of a point of sale and downloaded again', async ({ page }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/table/pos/view/1');
  await page.getByRole('tab', { name: /^Documents?$/ }).click();
  const panel = page.locator('[data-relation="pos_document_rel"]');
  await panel.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  // The server names what is missing; the form says it first.
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText(/Document type is required/)).toBeVisible();
  await dialog.getByRole('combobox', { name: /^Document type/ }).click();
  await page.getByRole('option', { name: 'Mietvertrag' }).click();
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'Mietvertrag Nord.pdf', mimeType: 'application/pdf', buffer: PDF });
  await snap(page, 'documents-upload-light');
  const [uploaded] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/documents/uploadfiles') && r.status() === 201),
    dialog.getByRole('button', { name: 'Upload' }).click(),
  ]);
  const documentId = ((await uploaded.json()) as { data: { document_id: number }[] }).data[0].document_id;
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('The document was uploaded.')).toBeVisible();
  const cell = panel.getByRole('gridcell', { name: 'Mietvertrag Nord' });
  await expect(cell).toBeVisible();
  await snap(page, 'documents-tab-light');

  // Opening the row downloads the file as it was uploaded.
  const [download] = await Promise.all([page.waitForEvent('download'), cell.click()]);
  expect(download.suggestedFilename()).toBe('Mietvertrag Nord.pdf');
  const saved = await download.path();
  expect(readFileSync(saved).equals(PDF)).toBe(true);

  // The preview page shows it through a short-lived link, never with the access token.
  await page.goto(`/app/preview/document/${documentId}/Mietvertrag%20Nord`);
  await expect(page.getByRole('heading', { name: 'Mietvertrag Nord' })).toBeVisible();
  const frame = page.getByTitle('Document preview');
  await expect(frame).toHaveAttribute('src', new RegExp(`^/documents/preview/${documentId}\\?authorization=`));
  const src = (await frame.getAttribute('src')) ?? '';
  const shown = await page.request.get(src);
  expect(shown.status()).toBe(200);
  expect((await shown.body()).equals(PDF)).toBe(true);
  expect((await page.request.get(`/documents/preview/${documentId}`)).status()).toBe(401);
  await page.getByText('Stamped copy').click();
  await expect(frame).toHaveAttribute('src', new RegExp(`^/documents/preview/stamp/${documentId}\\?authorization=`));
  const stamped = await page.request.get((await frame.getAttribute('src')) ?? '');
  expect(stamped.status()).toBe(200);
  expect((await stamped.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await snap(page, 'documents-preview-light');
});
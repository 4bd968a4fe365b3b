import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, openAs, snap } from './helpers';

/** A small but real PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test('a PDF is uploaded in the documents tab of a point of sale and downloaded again', async ({ page }) => {
  await openAs(page, 'admin@demo.test', '/app/table/pos/view/1');
  await page.getByRole('tab', { name: /^Documents?$/ }).click();
  const panel = page.locator('[data-relation="pos_document_rel"]');
  await panel.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  // The file is the one thing an upload needs; the form says so first.
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByText('Choose a PDF file.')).toBeVisible();
  await dialog.getByRole('combobox', { name: /^Document type/ }).click();
  await page.getByRole('option', { name: 'Mietvertrag' }).click();
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'Mietvertrag Nord.pdf', mimeType: 'application/pdf', buffer: PDF });
  await snap(page, 'documents-upload-light');
  await dialog.getByRole('button', { name: 'Upload' }).click();
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

});

test('a PDF uploaded without a type says so in the documents tab', async ({ page }) => {
  await openAs(page, 'admin@demo.test', '/app/table/pos/view/1');
  await page.getByRole('tab', { name: /^Documents?$/ }).click();
  const panel = page.locator('[data-relation="pos_document_rel"]');
  await panel.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'Scan ohne Typ.pdf', mimeType: 'application/pdf', buffer: PDF });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('gridcell', { name: 'Scan ohne Typ' })).toBeVisible();
  await expect(panel.getByText('No type yet').first()).toBeVisible();
});

test("the upload puts the server's detail next to a file that is not a PDF, de-duplicates a choice and uploads with progress", async ({ page, expected }) => {
  expected.response(422, /\/documents\/uploadfiles$/);
  await openAs(page, 'admin@demo.test', '/app/table/pos/view/1');
  await page.getByRole('tab', { name: /^Documents?$/ }).click();
  const panel = page.locator('[data-relation="pos_document_rel"]');
  await panel.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.getByRole('combobox', { name: /^Document type/ }).click();
  await page.getByRole('option', { name: 'Mietvertrag' }).click();
  const input = dialog.locator('[data-testid="pdf-upload"] input[type="file"]');
  // A file named .pdf that is no PDF: the server's answer stands next to it.
  await input.setInputFiles({ name: 'Scan Fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const item = dialog.getByTestId('pdf-upload-item');
  await expect(item).toHaveAttribute('data-state', 'failed');
  await expect(item.getByTestId('pdf-upload-error')).toHaveText(/PDF/);
  await expect(dialog).toBeVisible();
  // The real file replaces it; the same file chosen again is left out, and said so.
  await input.setInputFiles({ name: 'Mietvertrag Süd.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(item).toHaveAttribute('data-state', 'waiting');
  await input.setInputFiles({ name: 'Mietvertrag Süd.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(dialog.getByTestId('pdf-upload-notice')).toContainText('Mietvertrag Süd.pdf');
  await expect(item).toHaveCount(1);
  await snap(page, 'documents-upload-list-light');
  // The upload goes through XMLHttpRequest (fetch reports no upload progress).
  const sent = page.waitForRequest((r) => r.url().endsWith('/documents/uploadfiles') && r.resourceType() === 'xhr');
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await sent;
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('gridcell', { name: 'Mietvertrag Süd' })).toBeVisible();
});

/** Logs in through POST /token and answers the access token. */
async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.post('/token', {
    data: { username: email, password: DEMO_PASSWORD, user_browser_hash: 'e2e-documents-spec' },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).access_token as string;
}

test('a document is previewed through a short-lived link, original and stamped', async ({ page, request }) => {
  let token = await apiToken(request, 'admin@demo.test');
  const types = await request.post('/api/?documenttype', {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'read-rich', entity: 'documenttype', per_page: 100 },
  });
  const rows = ((await types.json()) as { data: { data: { documenttype_id: number; documenttype_name: string }[] } }).data.data;
  const type = rows.find((r) => r.documenttype_name === 'Mietvertrag') ?? rows[0];
  const uploaded = await request.post('/documents/uploadfiles', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      documenttype_id: String(type.documenttype_id),
      pos_id: '1',
      files: { name: 'Mietvertrag Vorschau.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const documentId = ((await uploaded.json()) as { data: { document_id: number }[] }).data[0].document_id;

  // The preview page shows it through a short-lived link, never with the access token.
  // pdf.js fetches the link URL itself.
  const asked = page.waitForRequest(new RegExp(`/documents/preview/${documentId}\\?authorization=`));
  await openAs(page, 'admin@demo.test', `/app/preview/document/${documentId}/Mietvertrag%20Vorschau`);
  await expect(page.locator('h3', { hasText: 'Mietvertrag Vorschau' })).toBeVisible();
  const src = new URL((await asked).url()).pathname + new URL((await asked).url()).search;
  await expect(page.getByTestId('pdf-viewer')).toHaveAttribute('data-pages', '1');
  await expect(page.getByRole('img', { name: 'Page 1' })).toBeVisible();
  const shown = await page.request.get(src);
  expect(shown.status()).toBe(200);
  expect((await shown.body()).equals(PDF)).toBe(true);
  expect((await page.request.get(`/documents/preview/${documentId}`)).status()).toBe(401);
  token = await apiToken(request, 'admin@demo.test');
  expect((await page.request.get(`/documents/preview/${documentId}?authorization=${token}`)).status()).toBe(401);
  const askedStamp = page.waitForRequest(new RegExp(`/documents/preview/stamp/${documentId}\\?authorization=`));
  await page.getByText('Stamped copy').click();
  const stampURL = new URL((await askedStamp).url());
  const stamped = await page.request.get(stampURL.pathname + stampURL.search);
  expect(stamped.status()).toBe(200);
  expect((await stamped.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByTestId('pdf-viewer')).toHaveAttribute('data-pages', '1');
  await snap(page, 'documents-preview-light');
});
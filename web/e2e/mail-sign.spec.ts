import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, logIn, mailTo, snap } from './helpers';

/**
 * Documents and mail from a ticket (issue 16): a mail with a document
 * attached is composed in the mail modal and arrives at the test SMTP
 * server; the document is signed with a drawn signature and the signed
 * copy shows in pdf.js and in the ticket's timeline; an incoming mail is
 * classified to its suggested ticket.
 */

const BOARD = '/app/table/board/1/kanban';
const TICKET = 10;
test.use({ viewport: { width: 1600, height: 1000 } });

/** A one-page PDF with a line of text. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n' +
    '4 0 obj<</Length 58>>stream\nBT /F1 24 Tf 72 760 Td (Wartungsvertrag Aufzug) Tj ET\nendstream endobj\n' +
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function apiToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/token', { data: { username: 'admin@demo.test', password: DEMO_PASSWORD, user_browser_hash: 'e2e-mail-sign' } });
  expect(answer.status()).toBe(200);
  return (await answer.json()).access_token as string;
}

/** Uploads the PDF to the ticket through the API and answers its id. */
async function uploadToTicket(request: APIRequestContext, name: string): Promise<number> {
  const token = await apiToken(request);
  const types = await request.post('/api/?documenttype', {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'read-rich', entity: 'documenttype', per_page: 100 },
  });
  const type = ((await types.json()) as { data: { data: { documenttype_id: number }[] } }).data.data[0];
  const uploaded = await request.post('/documents/uploadfiles', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { documenttype_id: String(type.documenttype_id), ticket_id: String(TICKET), document_name: name, files: { name: `${name}.pdf`, mimeType: 'application/pdf', buffer: PDF } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  return ((await uploaded.json()) as { data: { document_id: number }[] }).data[0].document_id;
}

async function openTicket(page: Page) {
  await page.goto(BOARD);
  await expect(page.getByRole('heading', { level: 1, name: 'Facility Management' })).toBeVisible({ timeout: 30_000 });
  await page.locator(`[data-ticket-id="${TICKET}"]`).click();
  const drawer = page.getByRole('dialog', { name: new RegExp(`^#${TICKET} `) });
  await expect(drawer).toBeVisible();
  return drawer;
}

test('a mail with an attachment is sent from a ticket, the document is signed and previewed', async ({ page, request }) => {
  test.setTimeout(120_000);
  const mailUrl = process.env.PORTFOLIO_E2E_MAIL_URL ?? '';
  const documentId = await uploadToTicket(request, 'Wartungsvertrag');
  await logIn(page, 'admin@demo.test');

  // Compose: an invalid address is refused, a valid one becomes a tag.
  let drawer = await openTicket(page);
  await expect(drawer.getByRole('link', { name: 'Wartungsvertrag', exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: 'Send Wartungsvertrag by email' }).click();
  const modal = page.getByRole('dialog', { name: 'Write an email' });
  await expect(modal).toBeVisible();
  const to = modal.getByRole('combobox', { name: 'To' });
  await to.fill('kein-empfaenger');
  await to.press('Enter');
  await expect(modal.getByText('kein-empfaenger is not a valid email address.')).toBeVisible();
  await to.fill('vermieter@example.org');
  await to.press('Enter');
  await modal.getByLabel('Subject').fill('Wartungsvertrag Aufzug');
  await modal.locator('.ProseMirror').click();
  await page.keyboard.type('Sehr geehrte Damen und Herren, anbei der Vertrag.');
  await modal.getByRole('button', { name: 'Separator' }).click();
  await page.keyboard.type('Mit freundlichen Grüßen');
  await expect(modal.locator('.ProseMirror hr')).toHaveCount(1);
  await expect(modal.getByText('Wartungsvertrag', { exact: true })).toBeVisible(); // the attachment chosen
  await snap(page, 'mail-compose-light');
  await modal.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('The email was sent.')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(drawer.getByText('Mail sent to vermieter@example.org: Wartungsvertrag Aufzug', { exact: true }).first()).toBeVisible();
  await expect
    .poll(async () => (await mailTo(request, mailUrl, 'vermieter@example.org')).map((m) => m.subject), { timeout: 20_000 })
    .toContain('Wartungsvertrag Aufzug');
  const [sent] = await mailTo(request, mailUrl, 'vermieter@example.org');
  expect(sent.html).toContain('anbei der Vertrag');
  expect(sent.html).toContain('<hr');

  // Sign: draw, see it placed on the page, confirm.
  await drawer.getByRole('link', { name: 'Sign Wartungsvertrag' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/sign-document/${documentId}/ticket/${TICKET}$`));
  await expect(page.getByTestId('pdf-viewer')).toHaveAttribute('data-pages', '1', { timeout: 20_000 });
  const pad = page.getByTestId('signature-pad');
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + 120);
  await page.mouse.down();
  for (const [x, y] of [[90, 60], [140, 130], [200, 50], [260, 120], [330, 70]]) await page.mouse.move(box.x + x, box.y + y, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('signature-placed')).toBeVisible();
  await snap(page, 'sign-document-light');
  await page.getByRole('button', { name: 'Sign the document' }).click();
  await expect(page.getByText('The document was signed.').first()).toBeVisible();

  // The signed copy in pdf.js: one page, zoom, search in its text.
  await page.getByRole('link', { name: 'Open the signed copy' }).click();
  await expect(page).toHaveURL(/\/app\/preview\/document\/\d+\//);
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer).toHaveAttribute('data-pages', '1', { timeout: 20_000 });
  await expect(page.getByTestId('pdf-zoom')).toHaveText('100 %');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByTestId('pdf-zoom')).toHaveText('125 %');
  await page.getByLabel('Search in the text').fill('Wartungsvertrag');
  await page.getByLabel('Search in the text').press('Enter');
  await expect(page.getByTestId('pdf-hits')).toHaveText('Found on page 1');
  await snap(page, 'preview-signed-light');

  // The ticket's timeline has the signature; its documents the signed copy.
  drawer = await openTicket(page);
  await expect(drawer.getByText(/^Signed by /).first()).toBeVisible();
  await expect(drawer.getByTestId('ticket-documents').getByRole('link', { name: /^Preview Wartungsvertrag/ })).toHaveCount(2);
});

test('an incoming mail is classified to its suggested ticket', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('portfolio.skin', 'dark'));
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/incoming-mails');
  await page.getByText('Angebot zu Ticket #1').click();
  await expect(page.getByTestId('mail-body')).toContainText('Angebot');
  await expect(page.getByRole('button', { name: 'Angebot Dach' })).toBeVisible();
  await snap(page, 'incoming-mails-dark');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The email was classified.')).toBeVisible();
  await expect(page.getByRole('table').getByText('Angebot zu Ticket #1')).toHaveCount(0);
  await page.getByText('Processed', { exact: true }).click();
  await expect(page.getByRole('table').getByText('Angebot zu Ticket #1')).toBeVisible();
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, type RecordedCall } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import { formFields, mockXhr } from '../../../test/xhr-mock';
import { isMailAddress } from '../api/send-mail';
import { MailModal } from './mail-modal';

const docs = {
  data: { data: [{ document_id: 4, document_name: 'Mietvertrag', document_mime_type: 'application/pdf', documenttype_id: 2 }], current_page: 1, per_page: 100 },
};

function server(send: (call: RecordedCall) => Response) {
  return mockFetch((call) => {
    if (call.url.includes('/emails/send')) return send(call);
    if (call.url.includes('ticket_document_rel')) return json(200, docs);
    return json(200, { data: { data: [] } });
  });
}

describe('MailModal', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('accepts only valid addresses as recipients', () => {
    expect(isMailAddress('anna@example.org')).toBe(true);
    expect(isMailAddress('Anna <anna@example.org>')).toBe(false);
    expect(isMailAddress('anna@example')).toBe(false);
    expect(isMailAddress('a@b.org,c@d.org')).toBe(false);
  });

  it('sends recipients, subject, body and the chosen document through POST /emails/send', async () => {
    const { calls } = server(() => json(201, { email_id: 12 }));
    const onSent = vi.fn();
    renderUi(<MailModal mode="compose" ticketId={3} to={['anna@example.org']} attach={[4]} onClose={() => undefined} onSent={onSent} />);
    expect(await screen.findByText('anna@example.org')).toBeTruthy();
    fireEvent.change(await screen.findByLabelText('Subject'), { target: { value: 'Vertrag' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(12));
    const send = calls.find((c) => c.url.includes('/emails/send'));
    expect(send?.body).toEqual({
      email_to: ['anna@example.org'],
      email_cc: [],
      email_subject: 'Vertrag',
      email_body: '',
      email_attachements: [4],
      ticket_id: 3,
    });
  });

  it('shows the server detail when sending fails and keeps the form', async () => {
    server(() => json(422, { detail: 'The attachments are larger than 20000 KB together.' }));
    const onClose = vi.fn();
    renderUi(<MailModal mode="compose" ticketId={3} to={['anna@example.org']} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('Subject'), { target: { value: 'Vertrag' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The attachments are larger than 20000 KB together.');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('uploads new PDFs through the shared upload, attaches those uploaded and waits while one failed', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch((call) => {
      if (call.url.includes('/emails/send')) return json(201, { email_id: 13 });
      if (call.url.includes('ticket_document_rel')) return json(200, docs);
      if ((call.body as { action?: string } | undefined)?.action === 'options') return json(200, { data: [{ value: 2, label: 'Angebot' }], has_more: false });
      return json(200, { data: { data: [] } });
    });
    const uploads = mockXhr((call) => {
      if (formFields(call.body).at(-1)?.[1] === 'file:Kaputt.pdf') call.respond(422, { detail: [{ loc: ['body', 'files'], msg: 'Kaputt.pdf is no PDF.', type: 'value_error' }] });
      else call.respond(201, { data: [{ document_id: 50 }] });
    });
    const onSent = vi.fn();
    renderUi(<MailModal mode="compose" ticketId={3} to={['anna@example.org']} onClose={() => undefined} onSent={onSent} />);
    fireEvent.change(await screen.findByLabelText('Subject'), { target: { value: 'Angebot' } });
    const input = screen.getByTestId('pdf-upload').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, [new File(['%PDF-1.4 a'], 'Kaputt.pdf', { type: 'application/pdf' }), new File(['%PDF-1.4 bb'], 'Gut.pdf', { type: 'application/pdf' })]);
    const typeInput = screen.getAllByLabelText(/Document type of the new PDFs/).find((el) => el.tagName === 'INPUT') as HTMLElement;
    await user.click(typeInput);
    await user.click(await screen.findByRole('option', { name: 'Angebot' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Kaputt.pdf is no PDF.')).toBeTruthy();
    expect(uploads.calls).toHaveLength(2);
    expect(formFields(uploads.calls[1].body)).toEqual([
      ['documenttype_id', '2'],
      ['ticket_id', '3'],
      ['files', 'file:Gut.pdf'],
    ]);
    // One failed: the mail waits.
    expect(calls.some((c) => c.url.includes('/emails/send'))).toBe(false);
    expect(onSent).not.toHaveBeenCalled();
    // Without the failed file the mail goes with the uploaded one, which is not uploaded twice.
    await user.click(screen.getByRole('button', { name: 'Remove Kaputt.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(13));
    expect(uploads.calls).toHaveLength(2);
    expect((calls.find((c) => c.url.includes('/emails/send'))?.body as { email_attachements: number[] }).email_attachements).toEqual([50]);
  });

  it('uploads new PDFs without a type and names a document without one in the attachments', async () => {
    const user = userEvent.setup();
    const untyped = { data: { data: [{ document_id: 5, document_name: 'Scan', document_mime_type: 'application/pdf', documenttype_id: null }] } };
    mockFetch((call) => {
      if (call.url.includes('/emails/send')) return json(201, { email_id: 14 });
      if (call.url.includes('ticket_document_rel')) return json(200, untyped);
      if ((call.body as { action?: string } | undefined)?.action === 'options') return json(200, { data: [{ value: 2, label: 'Angebot' }], has_more: false });
      return json(200, { data: { data: [] } });
    });
    const uploads = mockXhr((call) => call.respond(201, { data: [{ document_id: 51 }] }));
    const onSent = vi.fn();
    renderUi(<MailModal mode="compose" ticketId={3} to={['anna@example.org']} attach={[5]} onClose={() => undefined} onSent={onSent} />);
    expect((await screen.findAllByText('Scan (No type yet)')).length).toBeGreaterThan(0);
    fireEvent.change(await screen.findByLabelText('Subject'), { target: { value: 'Scan' } });
    const input = screen.getByTestId('pdf-upload').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, [new File(['%PDF-1.4 a'], 'Neu.pdf', { type: 'application/pdf' })]);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSent).toHaveBeenCalledWith(14));
    expect(formFields(uploads.calls[0].body)).toEqual([
      ['ticket_id', '3'],
      ['files', 'file:Neu.pdf'],
    ]);
  });

  it('refuses to send without a recipient', async () => {
    const { calls } = server(() => json(201, { email_id: 1 }));
    renderUi(<MailModal mode="compose" ticketId={3} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Add at least one recipient.')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/emails/send'))).toBe(false);
  });

  it('shows a stored mail read-only with its attachments', async () => {
    mockFetch(() => json(200, {}));
    renderUi(
      <MailModal
        mode="view"
        onClose={() => undefined}
        mail={{
          email_id: 9,
          email_received_datetime: '2026-11-20T10:00:00Z',
          email_from: 'anna@example.org',
          email_to: 'desk@portfolio.test',
          email_cc: null,
          email_subject: 'Rechnung',
          email_body: '<p>Hallo <b>Welt</b></p>',
          attachments: [{ document_id: 4, document_name: 'Rechnung.pdf', document_mime_type: 'application/pdf' }],
        }}
      />,
    );
    expect(await screen.findByText('Rechnung')).toBeTruthy();
    expect(screen.getByTestId('mail-body').innerHTML).toBe('<p>Hallo <b>Welt</b></p>');
    expect(screen.getByRole('button', { name: 'Rechnung.pdf' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { formFields, mockXhr } from '../../../test/xhr-mock';
import { fakeDefinition, textAttr } from '../../../test/fake-tables';
import { renderUi } from '../../../test/render-ui';
import { DocumentUploadModal } from './document-upload-modal';

const documentDef = fakeDefinition('document', {
  attributes: [
    textAttr('document_name', 'Name', { required: true, rules: [{ rule: 'required' }, { rule: 'max', value: 255 }] }),
    textAttr('document_file', 'File', {
      attribute_datatype_hint: 'file',
      read_only: true,
      hidden_on_update: true,
      accept: ['.pdf'],
      rules: [{ rule: 'size', value: 100000 }],
    }),
  ],
});

const pdf = (name: string) => new File(['%PDF-1.4 test'], name, { type: 'application/pdf' });


describe('DocumentUploadModal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the document after its file and sends the fields, the owner, then the file', async () => {
    const user = userEvent.setup();
    mockFetch(() => json(200, { data: { data: [] } }));
    const { calls } = mockXhr((call) => call.respond(201, { data: [{ document_id: 7 }] }));
    const onClose = vi.fn();
    renderUi(<DocumentUploadModal documentDef={documentDef} relationApi="pos_document_rel" owner={{ field: 'pos_id', id: '3' }} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Upload a document' });
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, pdf('Mietvertrag Nord.pdf'));
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Mietvertrag Nord'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const upload = calls.find((c) => c.url.endsWith('/documents/uploadfiles'));
    expect(upload?.method).toBe('POST');
    expect(formFields(upload!.body)).toEqual([
      ['document_name', 'Mietvertrag Nord'],
      ['pos_id', '3'],
      ['files', 'file:Mietvertrag Nord.pdf'],
    ]);
  });

  it("shows the server's answer about the file next to the file", async () => {
    const user = userEvent.setup();
    mockFetch(() => json(200, { data: { data: [] } }));
    mockXhr((call) => call.respond(422, { detail: [{ loc: ['body', 'files'], msg: 'Only PDF files can be uploaded.', type: 'value_error' }] }));
    const onClose = vi.fn();
    renderUi(<DocumentUploadModal documentDef={documentDef} relationApi="pos_document_rel" owner={{ field: 'pos_id', id: '3' }} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Upload a document' });
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, pdf('scan.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByTestId('pdf-upload-error')).toHaveTextContent('Only PDF files can be uploaded.');
    expect(within(dialog).getByTestId('pdf-upload-item')).toHaveAttribute('data-state', 'failed');
    expect(onClose).not.toHaveBeenCalled();
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../test/render-ui';
import { formFields, mockXhr, type XhrCall } from '../../../test/xhr-mock';
import { PdfUploadField, type UploadResult, usePdfUploads } from './pdf-uploads';

const pdf = (name: string, content = '%PDF-1.4 test') => new File([content], name, { type: 'application/pdf' });

/** The shared upload as a screen uses it: the field and a button that uploads for ticket 5. */
function Harness({ multiple = true, onResult }: { multiple?: boolean; onResult: (r: UploadResult) => void }) {
  const uploads = usePdfUploads({ multiple });
  const [, setN] = useState(0);
  return (
    <>
      <PdfUploadField uploads={uploads} label="Files" />
      <button type="button" onClick={() => void uploads.uploadAll({ documenttype_id: 2, ticket_id: 5 }).then(onResult).then(() => setN((n) => n + 1))}>
        Go
      </button>
    </>
  );
}

function fileInput() {
  return screen.getByTestId('pdf-upload').querySelector('input[type="file"]') as HTMLInputElement;
}

const items = () => screen.queryAllByTestId('pdf-upload-item');

describe('PdfUploadField', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the progress of each upload and sends one PDF per request with its fields first', async () => {
    const user = userEvent.setup();
    const held: XhrCall[] = [];
    const { calls } = mockXhr((call) => held.push(call));
    const onResult = vi.fn();
    renderUi(<Harness onResult={onResult} />);
    await user.upload(fileInput(), [pdf('Angebot.pdf'), pdf('Plan.pdf', '%PDF-1.4 longer content')]);
    expect(items()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(held).toHaveLength(1));
    expect(calls[0].url).toBe('/documents/uploadfiles');
    expect(formFields(calls[0].body)).toEqual([
      ['documenttype_id', '2'],
      ['ticket_id', '5'],
      ['files', 'file:Angebot.pdf'],
    ]);
    const bar = () => within(items()[0]).getByRole('progressbar');
    expect(items()[0]).toHaveAttribute('data-state', 'uploading');
    act(() => held[0].progress(30, 100));
    await waitFor(() => expect(bar()).toHaveAttribute('aria-valuenow', '30'));
    act(() => held[0].progress(75, 100));
    await waitFor(() => expect(bar()).toHaveAttribute('aria-valuenow', '75'));
    // The second file waits for the first (one upload at a time).
    expect(held).toHaveLength(1);
    act(() => held[0].respond(201, { data: [{ document_id: 41 }] }));
    await waitFor(() => expect(held).toHaveLength(2));
    expect(items()[0]).toHaveAttribute('data-state', 'done');
    expect(bar()).toHaveAttribute('aria-valuenow', '100');
    expect(formFields(calls[1].body).at(-1)).toEqual(['files', 'file:Plan.pdf']);
    act(() => held[1].respond(201, { data: [{ document_id: 42 }] }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith({ ids: [41, 42], failures: [] }));
  });

  it('de-duplicates a selection by name and size and tells the user', async () => {
    const user = userEvent.setup();
    const { calls } = mockXhr((call) => call.respond(201, { data: [{ document_id: calls.length }] }));
    const onResult = vi.fn();
    renderUi(<Harness onResult={onResult} />);
    await user.upload(fileInput(), [pdf('Vertrag.pdf'), pdf('Vertrag.pdf')]);
    expect(items()).toHaveLength(1);
    expect(screen.getByTestId('pdf-upload-notice')).toHaveTextContent('not added again: Vertrag.pdf');
    // The same name and size chosen again is left out; another size is another file.
    await user.upload(fileInput(), [pdf('Vertrag.pdf'), pdf('Vertrag.pdf', '%PDF-1.4 second version')]);
    expect(items()).toHaveLength(2);
    expect(screen.getByTestId('pdf-upload-notice')).toHaveTextContent('Vertrag.pdf');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onResult).toHaveBeenCalled());
    expect(calls).toHaveLength(2);
  });

  it("shows the server's detail next to the file that failed and still uploads the others", async () => {
    const user = userEvent.setup();
    const { calls } = mockXhr((call) => {
      const name = formFields(call.body).at(-1)?.[1];
      if (name === 'file:Kaputt.pdf') call.respond(422, { detail: [{ loc: ['body', 'files'], msg: 'Kaputt.pdf is not a PDF document.', type: 'value_error' }] });
      else call.respond(201, { data: [{ document_id: 9 }] });
    });
    const onResult = vi.fn();
    renderUi(<Harness onResult={onResult} />);
    await user.upload(fileInput(), [pdf('Kaputt.pdf'), pdf('Gut.pdf', '%PDF-1.4 good one')]);
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onResult).toHaveBeenCalled());
    expect(calls).toHaveLength(2);
    const [bad, good] = items();
    expect(bad).toHaveAttribute('data-state', 'failed');
    expect(within(bad).getByTestId('pdf-upload-error')).toHaveTextContent('Kaputt.pdf is not a PDF document.');
    expect(good).toHaveAttribute('data-state', 'done');
    expect(within(good).queryByTestId('pdf-upload-error')).toBeNull();
    expect(onResult.mock.calls[0][0].ids).toEqual([9]);
    expect(onResult.mock.calls[0][0].failures).toHaveLength(1);
    // Uploading again sends only the file that failed.
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(formFields(calls[2].body).at(-1)).toEqual(['files', 'file:Kaputt.pdf']);
  });

  it('refuses a file that is not a PDF or is empty in the browser and never sends it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { calls } = mockXhr((call) => call.respond(201, { data: [{ document_id: 1 }] }));
    const onResult = vi.fn();
    renderUi(<Harness onResult={onResult} />);
    await user.upload(fileInput(), [new File(['x'], 'Foto.jpg', { type: 'image/jpeg' }), new File([], 'Leer.pdf', { type: 'application/pdf' })]);
    expect(items().map((i) => i.getAttribute('data-state'))).toEqual(['refused', 'refused']);
    expect(within(items()[0]).getByTestId('pdf-upload-error')).toHaveTextContent('Foto.jpg is not a PDF file');
    expect(within(items()[1]).getByTestId('pdf-upload-error')).toHaveTextContent('Leer.pdf is empty');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith({ ids: [], failures: [] }));
    expect(calls).toHaveLength(0);
  });

  it('keeps one file where one is asked for: a new choice replaces it', async () => {
    const user = userEvent.setup();
    mockXhr((call) => call.respond(201, { data: [{ document_id: 1 }] }));
    renderUi(<Harness multiple={false} onResult={() => undefined} />);
    await user.upload(fileInput(), pdf('Erster.pdf'));
    await user.upload(fileInput(), pdf('Zweiter.pdf', '%PDF-1.4 other'));
    expect(items()).toHaveLength(1);
    expect(items()[0]).toHaveTextContent('Zweiter.pdf');
    expect(fileInput().multiple).toBe(false);
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { renderUi } from '../../../test/render-ui';
import { ImportModal } from './import-modal';

/** A fake XMLHttpRequest answering each send with the next of `answers` (status, body), recording what was sent. */
function fakeXhr(answers: [number, unknown][]) {
  const sent: { url: string; headers: Record<string, string>; body: FormData }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    timeout = 0;
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: FormData) {
      sent.push({ url: this.url, headers: this.headers, body });
      const [status, answer] = answers.shift() ?? [500, {}];
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.status = status;
        this.responseText = JSON.stringify(answer);
        this.onload?.();
      }, 5);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const csv = () => new File(['2024-01;117.6\n'], 'vpi.csv', { type: 'text/csv' });

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('ImportModal', () => {
  it('uploads the file with the session token and shows the summary with the skipped months', async () => {
    const user = userEvent.setup();
    session.setTokens('access-1', 'refresh-1', 900);
    const sent = fakeXhr([[200, { inserted: 3, updated: 1, unchanged: 400, skipped: [{ month: '2024-11', line: 413, reason: 'not yet published' }] }]]);
    renderUi(<ImportModal id={1} opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Import index values' });
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, csv());
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const summary = await within(dialog).findByTestId('import-summary');
    expect(summary).toHaveTextContent('New: 3');
    expect(summary).toHaveTextContent('Revised: 1');
    expect(summary).toHaveTextContent('Unchanged: 400');
    expect(summary).toHaveTextContent('Skipped: 1');
    expect(summary).toHaveTextContent('Line 413, 2024-11: not yet published');
    expect(sent[0].url).toBe('/priceindexes/1/import');
    expect(sent[0].headers.Authorization).toBe('Bearer access-1');
    expect((sent[0].body.get('file') as File).name).toBe('vpi.csv');
  });

  it('shows the refusal naming the line, and nothing as imported', async () => {
    const user = userEvent.setup();
    session.setTokens('access-1', 'refresh-1', 900);
    fakeXhr([[422, { detail: [{ loc: ['body', 'file'], msg: 'The index file cannot be read (line 2): "abc" is not a number. Nothing was imported.', type: 'value_error' }] }]]);
    renderUi(<ImportModal id={1} opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Import index values' });
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, csv());
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const error = await within(dialog).findByTestId('import-error');
    expect(error).toHaveTextContent('File refused, nothing imported');
    expect(error).toHaveTextContent('(line 2): "abc" is not a number');
    expect(within(dialog).queryByTestId('import-summary')).toBeNull();
  });
});

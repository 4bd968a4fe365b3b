import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { renderUi } from '../../../test/render-ui';
import { ImportWizard } from './import-wizard';

const uploadAnswer = {
  import_id: 7,
  entity: 'pos',
  columns: ['Filiale', 'Gesellschaft'],
  suggested_mapping: { Gesellschaft: 'company_id' },
  rows: 2,
  preview: [['Hamburg', 'Nordhandel Retail GmbH']],
  fields: [
    { name: 'pos_name', label: 'Name', required: true },
    { name: 'company_id', label: 'Company', required: true, reference: 'company' },
  ],
};

/** A fake fetch answering by path, recording the requests. */
function fakeFetch(answers: Record<string, [number, unknown]>) {
  const sent: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      sent.push({ path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
      const [status, body] = answers[path] ?? [404, { detail: 'not found' }];
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('ImportWizard', () => {
  it('uploads, offers the suggested mapping, and shows the errors per row', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    session.setTokens('access-1', 'refresh-1', 900);
    const sent = fakeFetch({
      '/uploadxlsx/': [201, uploadAnswer],
      '/imports/7/validate': [
        200,
        { valid: 1, invalid: 1, error_count: 1, errors: [{ row: 3, loc: ['rows', 3, 'company_id'], column: 'Gesellschaft', msg: '“Nirgendwo” names no record you can see.' }] },
      ],
    });
    const { container } = renderUi(<ImportWizard entity="pos" />);
    await user.upload(container.querySelector('input[type="file"]') as HTMLInputElement, new File(['x'], 'pos.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Columns (2 rows)')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Field for Gesellschaft')[0]).toHaveValue('Company');
    expect(screen.getByText('No column fills: Name')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('“Nirgendwo” names no record you can see.')).toBeInTheDocument();
    expect(screen.getByText('1 row with errors')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 1 row' })).toBeDisabled();
    expect(sent.find((s) => s.path === '/imports/7/validate')?.body).toEqual({ mapping: { Gesellschaft: 'company_id' } });
  });

  it('shows the progress of a commit job and the rows it refused', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    session.setTokens('access-1', 'refresh-1', 900);
    const record = { import_id: 7, entity: 'pos', file_name: 'pos.xlsx', rows: 2, valid: 2, error_count: 0, created: 0, created_at: '2026-01-01T00:00:00Z' };
    let reads = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
        switch (path) {
          case '/uploadxlsx/':
            return answer(201, { ...uploadAnswer, suggested_mapping: { Filiale: 'pos_name', Gesellschaft: 'company_id' } });
          case '/imports/7/validate':
            return answer(200, { valid: 2, invalid: 0, error_count: 0, errors: [] });
          case '/imports/7/commit':
            return answer(202, { ...record, state: 'committing', progress: { done: 0, total: 2 } });
          case '/imports/7':
            reads++;
            if (reads === 1) return answer(200, { ...record, state: 'committing', progress: { done: 1, total: 2 } });
            return answer(200, {
              ...record,
              state: 'invalid',
              error_count: 1,
              report: [{ row: 2, loc: ['rows', 2, 'company_id'], column: 'Gesellschaft', msg: '“Nordhandel” names no record you can see.' }],
            });
        }
        return answer(404, { detail: 'not found' });
      }),
    );
    const { container } = renderUi(<ImportWizard entity="pos" />);
    await user.upload(container.querySelector('input[type="file"]') as HTMLInputElement, new File(['x'], 'pos.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await user.click(await screen.findByRole('button', { name: 'Validate' }));
    await user.click(await screen.findByRole('button', { name: 'Import 2 rows' }));
    expect(await screen.findByLabelText('Import progress')).toBeInTheDocument();
    expect(await screen.findByText('“Nordhandel” names no record you can see.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText(/Nothing was imported: 1 row was refused/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Import progress')).not.toBeInTheDocument();
  });
});

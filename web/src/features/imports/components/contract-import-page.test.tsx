import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { renderUi } from '../../../test/render-ui';
import ContractImportPage from './contract-import-page';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('ContractImportPage', () => {
  it('checks the workbook, names sheet and row of each error, and imports a clean one', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    session.setTokens('access-1', 'refresh-1', 900);
    let checks = 0;
    const paths: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        paths.push(path);
        if (path === '/imports-contract/validate') {
          checks++;
          if (checks === 1) {
            return answer(200, {
              rows: { contract: 2, deadline: 1 },
              valid: { contract: 2, deadline: 0 },
              committed: false,
              errors: [{ sheet: 'Deadlines', row: 2, loc: ['Deadlines', 2, 'contractaction_notice_period_unit'], column: 'Notice unit', msg: 'Choose one of the units.' }],
            });
          }
          return answer(200, { rows: { contract: 2, deadline: 1 }, valid: { contract: 2, deadline: 1 }, committed: false, errors: [] });
        }
        if (path === '/imports-contract/commit') {
          return answer(201, { rows: { contract: 2, deadline: 1 }, valid: { contract: 2, deadline: 1 }, committed: true, errors: [], contracts: { K1: 10, K2: 11 }, import_id: 77 });
        }
        if (path === '/imports/77/undo') {
          return answer(200, { import_id: 77, entity: 'contract_workbook', state: 'undone' });
        }
        return answer(404, { detail: 'not found' });
      }),
    );
    const { container } = renderUi(<ContractImportPage />);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'contracts.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Choose one of the units.')).toBeInTheDocument();
    expect(screen.getByText('Deadlines: 0 of 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    await user.upload(input, new File(['y'], 'contracts.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported: 2 contracts with their areas, deadlines and payments.')).toBeInTheDocument();
    expect(paths.filter((p) => p.startsWith('/imports-contract'))).toEqual([
      '/imports-contract/validate',
      '/imports-contract/validate',
      '/imports-contract/commit',
    ]);
    await user.click(screen.getByRole('button', { name: 'Undo the import' }));
    expect(await screen.findByText('The import was undone.')).toBeInTheDocument();
    expect(paths).toContain('/imports/77/undo');
  });
});

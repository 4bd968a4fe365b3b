import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import TaxRatesPanel from './tax-rates-panel';

afterEach(() => vi.unstubAllGlobals());

const WAIT = { timeout: 10_000 };

describe('the tax rates panel', { timeout: 30_000 }, () => {
  it('deletes a tax rate only after a confirmation', async () => {
    const server = mockFetch((call) => {
      if (call.method === 'DELETE') return json(200, { deleted: [4] });
      return json(200, { data: [{ taxrate_id: 4, company_id: 1, taxrate_code: 'V19', taxrate_value: 19, row_version: 1 }] });
    });
    renderUi(
      <MantineProvider env="test">
        <ModalsProvider>
          <TaxRatesPanel companyId={1} />
        </ModalsProvider>
      </MantineProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete tax rate V19' }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Delete tax rate' }, WAIT);
    expect(dialog).toHaveTextContent('Delete the tax rate “V19”?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete tax rate V19' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete tax rate' }, WAIT)).getByRole('button', { name: 'Delete tax rate' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'DELETE')?.body).toEqual([4]));
    expect(await screen.findByText('Tax rate deleted', {}, WAIT)).toBeInTheDocument();
  });

  it('tells anyone but an administrator that they may not', async () => {
    mockFetch(() => json(403, { detail: 'Only administrators may manage tax rates.' }));
    renderUi(<TaxRatesPanel companyId={1} />);
    expect(await screen.findByText('Only administrators may manage tax rates.', {}, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add tax rate' })).toBeNull();
  });
});

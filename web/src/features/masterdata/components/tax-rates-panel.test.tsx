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

  it('edits a rate in place with PUT; Escape cancels, a 422 marks the field', async () => {
    let answer = json(422, { detail: [{ loc: ['body', 'taxrate_value'], msg: 'must be at most 100', type: 'value_error' }] });
    const server = mockFetch((call) => {
      if (call.method === 'PUT') return answer;
      return json(200, { data: [{ taxrate_id: 4, company_id: 1, taxrate_code: 'V19', taxrate_value: 19, row_version: 2 }] });
    });
    renderUi(
      <MantineProvider env="test">
        <ModalsProvider>
          <TaxRatesPanel companyId={1} />
        </ModalsProvider>
      </MantineProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit tax rate V19' }, WAIT));
    const code = screen.getAllByRole('textbox', { name: 'Code' })[0];
    expect(code).toHaveValue('V19');
    expect(code).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(code).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit tax rate V19' }));
    const rate = screen.getAllByRole('textbox', { name: 'Rate (%)' })[0];
    await user.clear(rate);
    await user.type(rate, '7{Enter}');
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')).toBeDefined());
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/companies/1/tax-rates/4');
    expect(put.body).toEqual({ row_version: 2, taxrate_code: 'V19', taxrate_value: 7 });
    expect(await screen.findByText('Error while saving the tax rate', {}, WAIT)).toBeInTheDocument();
    expect(screen.getAllByText('must be at most 100').length).toBeGreaterThan(0);
    answer = json(200, { data: { taxrate_id: 4, company_id: 1, taxrate_code: 'V19', taxrate_value: 7, row_version: 3 } });
    await user.click(screen.getByRole('button', { name: 'Save tax rate' }));
    expect(await screen.findByText('Tax rate saved', {}, WAIT)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save tax rate' })).toBeNull());
  });

  it('tells anyone but an administrator that they may not', async () => {
    mockFetch(() => json(403, { detail: 'Only administrators may manage tax rates.' }));
    renderUi(<TaxRatesPanel companyId={1} />);
    expect(await screen.findByText('Only administrators may manage tax rates.', {}, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add tax rate' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit tax rate/ })).toBeNull();
  });
});

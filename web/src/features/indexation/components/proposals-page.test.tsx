import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import type { Adjustment } from '../model/types';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

const see = [
  { action: 'read', subject: 'menu_contract' },
  { action: 'list', subject: 'indexadjustment' },
];
const decider = makeUser([...see, { action: 'create', subject: 'indexadjustment' }, { action: 'update', subject: 'indexadjustment' }]);
const reader = makeUser(see);

const proposal = (id: number, ref: string, cur: string, oldAmount: number, newAmount: number): Adjustment => ({
  indexadjustment_id: id,
  recurringpayment_id: 1,
  recurringpayment_id__label: 'Grundmiete',
  indexclause_id: 1,
  indexclause_id__label: 'VPI 5 %',
  indexadjustment_reference_month: ref,
  indexadjustment_current_month: cur,
  indexadjustment_reference_value: 101,
  indexadjustment_current_value: 108.1,
  indexadjustment_change_points: 7.1,
  indexadjustment_change_percent: 7.03,
  indexadjustment_old_amount: oldAmount,
  indexadjustment_new_amount: newAmount,
  indexadjustment_effective_date: `${cur}-01`,
  indexadjustment_status: 'proposed',
});
const rows = [proposal(1, '2021-01', '2022-03', 4500, 4816.34), proposal(2, '2022-03', '2022-11', 4816.34, 5065.85)];

/** The fake server: the proposals list, and `decide` for approve/reject. */
function server(decide: (call: RecordedCall) => Response) {
  return (call: RecordedCall) => {
    if (call.url.startsWith('/api/?indexadjustment')) return json(200, { data: { data: rows, current_page: 1, per_page: 2000, from: 1, to: 2, has_more: false }, attributes: [] });
    if (/\/indexadjustments\/\d+\/(approve|reject)$/.test(call.url)) return decide(call);
    if (call.url === '/indexadjustments/explanations')
      return json(200, {
        explanations: [
          { indexadjustment_id: 1, text: '+7.03 %, threshold 5 % reached' },
          { indexadjustment_id: 2, text: '+5.18 %, threshold 5 % reached', warning: 'The clause adjusts upwards only: such a clause may be void (§ 2 (3) PrKlG).' },
        ],
      });
    if (call.url === '/indexadjustments/run') return json(200, { proposals: rows, created: 2, evaluated: 3, errors: [{ recurringpayment_id: 9, month: '2019-01', detail: 'No index value for 2019-01.' }] });
    return undefined;
  };
}

describe('ProposalsPage', () => {
  it('approves behind a confirmation that names the amounts, and explains a 409', async () => {
    const user = userEvent.setup();
    loginAs(decider);
    const { server: fake } = renderApp(
      '/app/index-adjustments',
      decider,
      server(() => json(409, { detail: 'Approve the adjustments of a payment in their chain\'s order: an earlier one is still open.' })),
    );
    const table = await screen.findByTestId('adjustment-table', {}, { timeout: 5000 });
    expect(screen.getByText('2 open proposals')).toBeInTheDocument();
    await user.click(within(table).getAllByRole('button', { name: 'Approve' })[1]);
    const dialog = await screen.findByRole('dialog', { name: 'Approve the adjustment?' });
    expect(dialog).toHaveTextContent('Grundmiete: the amount changes from 4,816.34 to 5,065.85');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('This adjustment cannot be decided now')).toBeInTheDocument();
    expect(screen.getByText(/an earlier one is still open/)).toBeInTheDocument();
    const approve = fake.calls.find((c) => c.url === '/indexadjustments/2/approve');
    expect(approve?.method).toBe('POST');
  });

  it('states the rule of each proposal and the warning of an upward-only clause, as the server words them', async () => {
    loginAs(reader);
    const { server: fake } = renderApp('/app/index-adjustments', reader, server(() => json(200, {})));
    const table = await screen.findByTestId('adjustment-table', {}, { timeout: 5000 });
    const first = within(table).getByTestId('adjustment-1');
    expect(await within(first).findByTestId('adjustment-rule')).toHaveTextContent('+7.03 %, threshold 5 % reached');
    expect(within(first).queryByTestId('adjustment-warning')).toBeNull();
    const second = within(table).getByTestId('adjustment-2');
    expect(within(second).getByTestId('adjustment-warning')).toHaveTextContent('may be void (§ 2 (3) PrKlG)');
    const asked = fake.calls.find((c) => c.url === '/indexadjustments/explanations');
    expect(asked?.method).toBe('POST');
    expect(asked?.body).toEqual({ ids: [1, 2] });
  });

  it('runs the evaluation and reports what it created and what it could not evaluate', async () => {
    const user = userEvent.setup();
    loginAs(decider);
    renderApp('/app/index-adjustments', decider, server(() => json(200, {})));
    await user.click(await screen.findByRole('button', { name: 'Run evaluation' }, { timeout: 5000 }));
    const result = await screen.findByTestId('run-result');
    expect(result).toHaveTextContent('3 payments evaluated, 2 new proposals, 2 open in all.');
    expect(result).toHaveTextContent('Payment #9: No index value for 2019-01.');
  });

  it('shows no decisions and no run to who may only read', async () => {
    loginAs(reader);
    renderApp('/app/index-adjustments', reader, server(() => json(200, {})));
    const table = await screen.findByTestId('adjustment-table', {}, { timeout: 5000 });
    expect(within(table).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(within(table).getAllByRole('button', { name: 'Letter' })).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Run evaluation' })).toBeNull());
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { newRow, removeRow, rowErrors, rowsFrom, rowsToSend } from './payment-rows';

const stored = rowsFrom([
  { recurringpayment_id: 7, row_version: 2, recurringpayment_name: 'Rent' },
  { recurringpayment_id: 9, row_version: 1, recurringpayment_name: 'Service charge' },
]);

describe('recurring payment rows', () => {
  it('keeps the id and row version of stored rows', () => {
    expect(stored.map((r) => [r.key, r.id, r.version])).toEqual([
      ['id-7', 7, 2],
      ['id-9', 9, 1],
    ]);
  });

  it('sends new rows and changed rows only; a stored row names itself', () => {
    const rows = [...stored, newRow(1)];
    const payload = (key: string) => ({ recurringpayment_name: `name of ${key}` });
    const sent = rowsToSend(rows, payload, (key) => key === 'id-9');
    expect(sent).toEqual([
      { key: 'id-9', data: { recurringpayment_name: 'name of id-9', recurringpayment_id: 9, row_version: 1 } },
      { key: 'new-1', data: { recurringpayment_name: 'name of new-1' } },
    ]);
  });

  it('removes a stored row by id on save, a new row at once', () => {
    const rows = [...stored, newRow(1)];
    const a = removeRow(rows, [], 'id-7');
    expect(a.rows.map((r) => r.key)).toEqual(['id-9', 'new-1']);
    expect(a.removed).toEqual([7]);
    const b = removeRow(a.rows, a.removed, 'new-1');
    expect(b.rows.map((r) => r.key)).toEqual(['id-9']);
    expect(b.removed).toEqual([7]);
  });

  it('puts each row error on the row that was sent at its index, and the rest on the step', () => {
    const sent = [
      { key: 'id-9', data: {} },
      { key: 'new-1', data: {} },
    ];
    const error = new ApiError(422, [
      { loc: ['body', 'recurringpayments', 1, 'recurringpayment_end_date'], msg: 'End before start', type: 'value_error' },
      { loc: ['body', 'recurringpayments', 1, 'taxrate_id'], msg: 'Tax rate is required', type: 'missing' },
      { loc: ['body', 'recurringpayments', 0, 'recurringpayment_id'], msg: 'Not a payment of this contract', type: 'value_error' },
      { loc: ['body', 'remove_ids', 0], msg: 'Not a payment of this contract', type: 'value_error' },
    ]);
    expect(rowErrors(error, sent)).toEqual({
      rows: {
        'new-1': { recurringpayment_end_date: 'End before start', taxrate_id: 'Tax rate is required' },
        'id-9': { recurringpayment_id: 'Not a payment of this contract' },
      },
      general: ['Not a payment of this contract'],
    });
  });

  it('leaves other errors to the caller', () => {
    expect(rowErrors(new ApiError(409, 'Changed meanwhile'), [])).toBeNull();
    expect(rowErrors(new Error('boom'), [])).toBeNull();
  });
});

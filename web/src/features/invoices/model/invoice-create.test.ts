import { describe, expect, it } from 'vitest';
import { UnparsedInput } from '../../../lib/validation';
import { createInvoiceBody, invoiceFieldErrors, valueTypeErrors } from './invoice-create';

describe('the invoice create model', () => {
  it('sends the areas and only the value type rows with a type, values as decimal strings, a text that is no number as typed', () => {
    const body = createInvoiceBody({ invoice_number: 'NK-1' }, [3, 4], [
      { key: 1, invoicevaluetype_id: 5, value: 12.5 },
      { key: 2, invoicevaluetype_id: null, value: 9 },
      { key: 3, invoicevaluetype_id: 6, value: null },
      { key: 4, invoicevaluetype_id: 7, value: new UnparsedInput('12,5x', 'form.number_invalid') },
    ]);
    expect(body).toEqual({
      data: { invoice_number: 'NK-1', area_id: [3, 4] },
      value_types: [
        { invoicevaluetype_id: 5, value: '12.5' },
        { invoicevaluetype_id: 6, value: null },
        { invoicevaluetype_id: 7, value: '12,5x' },
      ],
    });
  });

  it('splits the refusals into the invoice fields and the value type rows', () => {
    const detail = [
      { loc: ['body', 'invoice_billing_period_to'], msg: 'must be after the start', type: 'after' },
      { loc: ['body', 'value_types', 1, 'value'], msg: 'not a number', type: 'number' },
      { loc: ['body', 'value_types', 1, 'invoicevaluetype_id'], msg: 'not found', type: 'ref' },
    ];
    expect(invoiceFieldErrors(detail)).toEqual({ invoice_billing_period_to: 'must be after the start' });
    expect(valueTypeErrors(detail)).toEqual({ 1: { value: 'not a number', invoicevaluetype_id: 'not found' } });
    expect(valueTypeErrors('Invoice refused')).toEqual({});
  });
});

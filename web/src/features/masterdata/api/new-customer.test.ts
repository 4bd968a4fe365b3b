import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { partErrors } from './new-customer';

const refused = (loc: (string | number)[][]) =>
  new ApiError(422, loc.map((l) => ({ loc: l, msg: `bad ${l.join('.')}`, type: 'x' })), null);

describe('partErrors', () => {
  it('sorts the field errors of a refused new customer by part', () => {
    const errors = partErrors(
      refused([
        ['body', 'company', 'company_name'],
        ['body', 'company', 'address.city_zip'],
        ['body', 'contactperson', 'contactdetails.contactdetails_email'],
        ['body', 'pos'],
      ]),
    );
    expect(errors.company).toEqual({ company_name: 'bad body.company.company_name', 'address.city_zip': 'bad body.company.address.city_zip' });
    expect(errors.contactperson).toEqual({ 'contactdetails.contactdetails_email': 'bad body.contactperson.contactdetails.contactdetails_email' });
    expect(errors.pos).toEqual({ '': 'bad body.pos' });
    expect(errors.customergroup).toBeUndefined();
  });

  it('keeps the first message of a field and ignores errors outside the parts', () => {
    const errors = partErrors(refused([['body', 'pos', 'pos_name'], ['body', 'pos', 'pos_name'], ['body', 'row_version']]));
    expect(errors).toEqual({ pos: { pos_name: 'bad body.pos.pos_name' } });
  });

  it('answers nothing for a plain message', () => {
    expect(partErrors(new ApiError(422, 'no', null))).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import type { RefDefinition } from '../../lib/table-definition';
import { optionsRecord, refConditions } from './remote-select';

/** A location field narrowed by a sibling column, and through pos_location by the chosen point of sale. */
const LOCATION: RefDefinition = {
  table: 'location',
  key: 'location_id',
  label: ['location_name'],
  where: [
    { target: 'company_id', source: 'company_id' },
    { via: 'pos', source: 'pos_id' },
  ],
};

describe('a narrowing through a link', () => {
  it('sends the point of sale to the options action, empty as null', () => {
    expect(optionsRecord(LOCATION, { company_id: 3, pos_id: 12, contract_name: 'x' })).toEqual({ company_id: 3, pos_id: 12 });
    expect(optionsRecord(LOCATION, { company_id: 3, pos_id: '' })).toEqual({ company_id: 3, pos_id: null });
  });

  it('is no column condition of a plain list read (only the server applies it)', () => {
    expect(refConditions(LOCATION, { company_id: 3, pos_id: 12 })).toEqual({ company_id: 3 });
  });
});

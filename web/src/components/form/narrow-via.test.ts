import { describe, expect, it } from 'vitest';
import type { AttributeDefinition, RefDefinition } from '../../lib/table-definition';
import { optionsRecord, refConditions } from './remote-select';
import { withNarrowedCleared } from './use-record-form';

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

describe('a change of a narrowing field', () => {
  const attrs = [
    { attribute: 'company_id', ref: { table: 'company', key: 'company_id', label: ['company_name'] } },
    { attribute: 'pos_id', ref: { table: 'pos', key: 'pos_id', label: ['pos_name'], where: [{ target: 'company_id', source: 'company_id' }] } },
    { attribute: 'location_id', ref: LOCATION },
    { attribute: 'area_id', multiple: true, ref: { table: 'area', key: 'area_id', label: ['area_name'], where: [{ via: 'location', source: 'location_id' }] } },
    { attribute: 'contract_name' },
  ] as unknown as AttributeDefinition[];
  const filled = { company_id: 1, pos_id: 12, location_id: 40, area_id: [7, 8], contract_name: 'Lease' };

  it('clears the location (and what it narrows) when the point of sale changes', () => {
    expect(withNarrowedCleared(attrs, filled, 'pos_id', 13)).toEqual({ ...filled, pos_id: 13, location_id: null, area_id: [] });
  });

  it('clears down the whole chain when the company changes', () => {
    expect(withNarrowedCleared(attrs, filled, 'company_id', 2)).toEqual({
      company_id: 2,
      pos_id: null,
      location_id: null,
      area_id: [],
      contract_name: 'Lease',
    });
  });

  it('keeps every choice when the same value is set again, or another field changes', () => {
    expect(withNarrowedCleared(attrs, filled, 'pos_id', 12)).toEqual(filled);
    expect(withNarrowedCleared(attrs, filled, 'contract_name', 'Lease 2')).toEqual({ ...filled, contract_name: 'Lease 2' });
  });
});

import { describe, expect, it } from 'vitest';
import { chosenTwice, mappingToSend, missingRequired, percentDone } from './mapping';

const fields = [
  { name: 'pos_name', label: 'Name', required: true },
  { name: 'company_id', label: 'Company', required: true, reference: 'company' },
  { name: 'pos_name_external', label: 'External name', required: false },
];

describe('import mapping', () => {
  it('leaves unmapped columns out', () => {
    expect(mappingToSend({ Name: 'pos_name', Notes: '', Company: 'company_id' })).toEqual({ Name: 'pos_name', Company: 'company_id' });
  });
  it('names the required fields no column fills', () => {
    expect(missingRequired(fields, { Name: 'pos_name' }).map((f) => f.name)).toEqual(['company_id']);
    expect(missingRequired(fields, { Name: 'pos_name', Firma: 'company_id' })).toEqual([]);
  });
  it('finds a field chosen twice', () => {
    expect(chosenTwice({ A: 'pos_name', B: 'pos_name', C: 'company_id', D: '' })).toEqual(['pos_name']);
  });
  it('computes the progress', () => {
    expect(percentDone(undefined)).toBe(0);
    expect(percentDone({ done: 50_000, total: 100_000 })).toBe(50);
    expect(percentDone({ done: 3, total: 0 })).toBe(0);
  });
});

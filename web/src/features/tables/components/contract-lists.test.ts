import { describe, expect, it } from 'vitest';
import { movedEnd } from './contract-lists';

describe('movedEnd', () => {
  it('is the current end where options or extensions moved it', () => {
    expect(movedEnd({ contract_end_date: '2027-12-31', contract_current_end_date: '2032-12-31' })).toBe('2032-12-31');
  });
  it('is nothing where the contract runs to its agreed end, or the server sent none', () => {
    expect(movedEnd({ contract_end_date: '2027-12-31', contract_current_end_date: '2027-12-31' })).toBeNull();
    expect(movedEnd({ contract_end_date: '2027-12-31', contract_current_end_date: null })).toBeNull();
    expect(movedEnd({ contract_end_date: '2027-12-31' })).toBeNull();
  });
});

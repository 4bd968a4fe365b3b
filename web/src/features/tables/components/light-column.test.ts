import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { lightColumn, lightText } from './light-column';
import { DEFAULT_THRESHOLDS, NOTICE_FIELD, STATUS_FIELD } from './traffic-light';

// Echoes the key and its count, so the test reads what the column asks for.
const t = ((key: string, opts?: { count?: number }) => (opts?.count === undefined ? key : `${key}(${opts.count})`)) as unknown as TFunction;
const today = new Date(2027, 2, 31, 12, 0, 0);

describe('lightText', () => {
  it('says the light and the days in words', () => {
    expect(lightText(t, 'red', 12)).toBe('grid.light_red · grid.light_in_days(12)');
    expect(lightText(t, 'red', -3)).toBe('grid.light_red · grid.light_overdue(3)');
    expect(lightText(t, null, 4)).toBe('');
  });
});

describe('lightColumn', () => {
  const column = lightColumn(t, DEFAULT_THRESHOLDS, today);
  it('lights an active deadline by its notice date', () => {
    expect(column.text({ [NOTICE_FIELD]: '2027-05-10', [STATUS_FIELD]: 'active' })).toBe('grid.light_yellow · grid.light_in_days(40)');
  });
  it('leaves a deadline that is not active dark', () => {
    expect(column.text({ [NOTICE_FIELD]: '2027-04-10', [STATUS_FIELD]: 'stopped' })).toBe('');
  });
});

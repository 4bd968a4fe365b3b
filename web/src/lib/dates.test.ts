import { describe, expect, it } from 'vitest';
import { formatDate, formatRelative, hasTime } from './dates';

const NOW = new Date(2024, 4, 15, 16, 0, 0); // 15 May 2024, 16:00 local time

describe('formatDate', () => {
  it('uses DD.MM.YYYY in German', () => {
    expect(formatDate('2024-03-07', 'de', NOW)).toBe('07.03.2024');
  });
  it('uses YYYY-MM-DD in English', () => {
    expect(formatDate('2024-03-07', 'en', NOW)).toBe('2024-03-07');
  });
  it('uses DD-MM-YYYY otherwise (French)', () => {
    expect(formatDate('2024-03-07', 'fr', NOW)).toBe('07-03-2024');
    expect(formatDate('2024-03-07', 'it', NOW)).toBe('07-03-2024');
  });
  it('adds HH:mm when the value has a time', () => {
    expect(formatDate('2024-03-07 09:05:00', 'de', NOW)).toBe('07.03.2024 09:05');
    expect(formatDate('2024-03-07 21:30', 'en', NOW)).toBe('2024-03-07 21:30');
    expect(formatDate(new Date(2024, 2, 7, 8, 1), 'fr', NOW)).toBe('07-03-2024 08:01');
  });
  it('shows only HH:mm for a timestamp from today', () => {
    expect(formatDate('2024-05-15 08:45:00', 'de', NOW)).toBe('08:45');
    expect(formatDate(new Date(2024, 4, 15, 0, 0), 'en', NOW)).toBe('00:00');
  });
  it('keeps the date for a date-only value from today', () => {
    expect(formatDate('2024-05-15', 'en', NOW)).toBe('2024-05-15');
  });
  it('returns an empty text for empty or invalid values', () => {
    expect(formatDate(null, 'en', NOW)).toBe('');
    expect(formatDate('', 'en', NOW)).toBe('');
    expect(formatDate('not a date', 'en', NOW)).toBe('');
  });
  it('knows which values carry a time', () => {
    expect(hasTime('2024-01-01')).toBe(false);
    expect(hasTime('2024-01-01 10:00:00')).toBe(true);
    expect(hasTime('2024-01-01T10:00:00Z')).toBe(true);
  });
});

describe('formatRelative', () => {
  it('shows the time only for today', () => {
    expect(formatRelative('2024-05-15 09:12:00', 'en', NOW)).toBe('09:12');
  });
  it('shows month, day and time before today within 7 days', () => {
    expect(formatRelative('2024-05-14 18:30:00', 'en', NOW)).toBe('May 14, 18:30');
    expect(formatRelative('2024-05-09 07:00:00', 'de', NOW)).toBe('9. Mai, 07:00');
    expect(formatRelative('2024-05-10 07:00:00', 'fr', NOW)).toBe('10 mai, 07:00');
  });
  it('shows month and day when older than 7 days', () => {
    expect(formatRelative('2024-05-01 10:00:00', 'en', NOW)).toBe('May 1');
    expect(formatRelative('2024-03-03 10:00:00', 'de', NOW)).toBe('3. März');
    expect(formatRelative('2024-02-03 10:00:00', 'fr', NOW)).toBe('3 févr.');
  });
  it('returns an empty text for empty values', () => {
    expect(formatRelative(undefined, 'en', NOW)).toBe('');
  });
});

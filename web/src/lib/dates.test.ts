import { describe, expect, it } from 'vitest';
import { dateFormatFor, daysInMonth, formatDate, formatRelative, hasTime, parseDateText } from './dates';

const NOW = new Date(2024, 4, 15, 16, 0, 0); // 15 May 2024, 16:00 local time

describe('formatDate', () => {
  it('uses DD.MM.YYYY in German', () => {
    expect(formatDate('2024-03-07', 'de', NOW)).toBe('07.03.2024');
  });
  it('uses MM/DD/YYYY in English (en-US)', () => {
    expect(formatDate('2024-03-07', 'en', NOW)).toBe('03/07/2024');
  });
  it('uses DD/MM/YYYY in French, and English for any other language', () => {
    expect(formatDate('2024-03-07', 'fr', NOW)).toBe('07/03/2024');
    expect(formatDate('2024-03-07', 'it', NOW)).toBe('03/07/2024');
  });
  it('adds HH:mm when the value has a time', () => {
    expect(formatDate('2024-03-07 09:05:00', 'de', NOW)).toBe('07.03.2024 09:05');
    expect(formatDate('2024-03-07 21:30', 'en', NOW)).toBe('03/07/2024 21:30');
    expect(formatDate(new Date(2024, 2, 7, 8, 1), 'fr', NOW)).toBe('07/03/2024 08:01');
  });
  it('shows only HH:mm for a timestamp from today', () => {
    expect(formatDate('2024-05-15 08:45:00', 'de', NOW)).toBe('08:45');
    expect(formatDate(new Date(2024, 4, 15, 0, 0), 'en', NOW)).toBe('00:00');
  });
  it('keeps the date for a date-only value from today', () => {
    expect(formatDate('2024-05-15', 'en', NOW)).toBe('05/15/2024');
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

describe('parseDateText', () => {
  it('reads each language in its own order', () => {
    expect(parseDateText('31.12.2031', 'de')).toEqual({ ok: true, value: '2031-12-31' });
    expect(parseDateText('31/12/2031', 'fr')).toEqual({ ok: true, value: '2031-12-31' });
    expect(parseDateText('12/31/2031', 'en')).toEqual({ ok: true, value: '2031-12-31' });
    expect(parseDateText('1.2.2031', 'de')).toEqual({ ok: true, value: '2031-02-01' });
    expect(parseDateText('2/1/2031', 'en')).toEqual({ ok: true, value: '2031-02-01' });
    expect(parseDateText(' 07/03/2024 ', 'fr')).toEqual({ ok: true, value: '2024-03-07' });
  });

  it('refuses a month 31 instead of rolling over (12/31/2031 in German once became 12.07.2033)', () => {
    expect(parseDateText('12/31/2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('12.31.2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('12/31/2031', 'fr')).toEqual({ ok: false });
    expect(parseDateText('31/12/2031', 'en')).toEqual({ ok: false });
  });

  it('refuses days a month does not have: 29 February outside leap years, 31 April, day 0', () => {
    expect(parseDateText('29.02.2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('02/29/2031', 'en')).toEqual({ ok: false });
    expect(parseDateText('29/02/2100', 'fr')).toEqual({ ok: false });
    expect(parseDateText('29.02.2032', 'de')).toEqual({ ok: true, value: '2032-02-29' });
    expect(parseDateText('29/02/2000', 'fr')).toEqual({ ok: true, value: '2000-02-29' });
    expect(parseDateText('31.04.2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('00.01.2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('01.13.2031', 'de')).toEqual({ ok: false });
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
  });

  it('takes ISO dates in every language, and four-digit years only', () => {
    expect(parseDateText('2031-12-31', 'de')).toEqual({ ok: true, value: '2031-12-31' });
    expect(parseDateText('2031-12-31', 'en')).toEqual({ ok: true, value: '2031-12-31' });
    expect(parseDateText('2031-02-30', 'fr')).toEqual({ ok: false });
    expect(parseDateText('31.12.31', 'de')).toEqual({ ok: false });
    expect(parseDateText('12/31/31', 'en')).toEqual({ ok: false });
  });

  it('refuses what is no date, a dotted date in English and mixed separators', () => {
    expect(parseDateText('tomorrow', 'en')).toEqual({ ok: false });
    expect(parseDateText('31.12.2031', 'en')).toEqual({ ok: false });
    expect(parseDateText('31.12/2031', 'de')).toEqual({ ok: false });
    expect(parseDateText('31122031', 'de')).toEqual({ ok: false });
  });

  it('reads a blank text as no date', () => {
    expect(parseDateText('  ', 'de')).toEqual({ ok: true, value: null });
  });

  it('formats what it reads back in the same pattern', () => {
    for (const lang of ['en', 'de', 'fr']) {
      const shown = formatDate('2031-12-31', lang, NOW);
      expect(parseDateText(shown, lang)).toEqual({ ok: true, value: '2031-12-31' });
    }
    expect(dateFormatFor('de')).toBe('DD.MM.YYYY');
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

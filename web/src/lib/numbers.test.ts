import { describe, expect, it } from 'vitest';
import { formatNumberDisplay, formatNumberInput, numberExample, parseNumberText } from './numbers';

const ok = (value: number | null) => ({ ok: true, value });
const refused = (problem: string) => ({ ok: false, problem });

describe('parseNumberText', () => {
  it('reads the decimal comma and thousands points in German', () => {
    expect(parseNumberText('1.234,56', 'de', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('1234,56', 'de', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('12,5', 'de', 4)).toEqual(ok(12.5));
    expect(parseNumberText('1.234.567', 'de', 0)).toEqual(ok(1234567));
    expect(parseNumberText('-0,75', 'de', 4)).toEqual(ok(-0.75));
    expect(parseNumberText(',5', 'de', 4)).toEqual(ok(0.5));
  });

  it('reads the decimal comma and space-separated thousands in French, no-break spaces too', () => {
    expect(parseNumberText('1 234,56', 'fr', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('1\u00a0234,56', 'fr', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('1\u202f234\u202f567,5', 'fr', 4)).toEqual(ok(1234567.5));
    expect(parseNumberText('1234,56', 'fr', 4)).toEqual(ok(1234.56));
  });

  it('reads the decimal point and thousands commas in English', () => {
    expect(parseNumberText('1,234.56', 'en', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('1234.56', 'en', 4)).toEqual(ok(1234.56));
    expect(parseNumberText('-12', 'en', 0)).toEqual(ok(-12));
  });

  it('refuses separators out of place instead of guessing: German 12.5 is not 125', () => {
    expect(parseNumberText('12.5', 'de', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('1234.56', 'de', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('1,5', 'en', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('1 234.56', 'en', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('1.234,56', 'fr', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('12,', 'de', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('12 €', 'de', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('1e5', 'en', 4)).toEqual(refused('invalid'));
    expect(parseNumberText('-', 'en', 4)).toEqual(refused('invalid'));
  });

  it('refuses fraction digits a field does not keep instead of rounding them away', () => {
    expect(parseNumberText('1,5', 'de', 0)).toEqual(refused('whole'));
    expect(parseNumberText('1,23456', 'de', 4)).toEqual(refused('decimals'));
    expect(parseNumberText('1,2345', 'de', 4)).toEqual(ok(1.2345));
  });

  it('refuses more digits than a JSON number keeps exactly', () => {
    expect(parseNumberText('1234567890123456', 'en', 0)).toEqual(refused('digits'));
    expect(parseNumberText('123456789012345', 'en', 0)).toEqual(ok(123456789012345));
    expect(parseNumberText('00012,5', 'de', 4)).toEqual(ok(12.5));
  });

  it('reads a blank text as no number', () => {
    expect(parseNumberText(' ', 'de', 4)).toEqual(ok(null));
  });
});

describe('number formats', () => {
  it('shows a stored number in an input with the language decimal separator and no thousands separators', () => {
    expect(formatNumberInput(1234.56, 'de', 2)).toBe('1234,56');
    expect(formatNumberInput('1234.5', 'fr', 2)).toBe('1234,50');
    expect(formatNumberInput(1234.56, 'en', 2)).toBe('1234.56');
    expect(formatNumberInput(1.2345, 'de', 2)).toBe('1,2345');
    expect(formatNumberInput(56, 'de')).toBe('56');
    expect(formatNumberInput(null, 'de')).toBe('');
  });

  it('reads back what an input shows', () => {
    for (const lang of ['en', 'de', 'fr']) expect(parseNumberText(formatNumberInput(-98765.4321, lang, 2), lang, 4)).toEqual(ok(-98765.4321));
  });

  it('separates thousands in read-only views, decimals with two to four fraction digits', () => {
    expect(formatNumberDisplay(1234.56, 'de', true)).toBe('1.234,56');
    expect(formatNumberDisplay(1234.5, 'en', true)).toBe('1,234.50');
    expect(formatNumberDisplay(1234.56, 'fr', true)).toBe('1\u202f234,56');
    expect(formatNumberDisplay(0.30000000000000004, 'de', true)).toBe('0,30');
    expect(formatNumberDisplay(2024, 'de', false)).toBe('2024');
  });

  it('gives an example in each language for the messages', () => {
    expect(numberExample('de', 4)).toBe('1.234,56');
    expect(numberExample('en', 4)).toBe('1,234.56');
    expect(numberExample('fr', 0)).toBe('1234');
  });
});

import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumberDisplay, formatNumberInput, MAX_SIGNIFICANT_DIGITS, numberExample, type NumberProblem, parseNumberText } from '../../lib/numbers';
import type { UnparsedInput } from '../../lib/validation';
import { type TextReading, useTypedText } from './use-typed-text';

export interface NumberTextInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'> {
  /** A number (or numeric string from the API), null, or text typed before that was no number. */
  value: unknown;
  /** The number typed, null when emptied, or the text when it is no number of this field. */
  onChange: (value: number | null | UnparsedInput) => void;
  /** Fraction digits the field keeps: 0 for whole numbers. */
  decimals: number;
  /** Fraction digits a stored value shows with (2 for amounts). */
  minDecimals?: number;
  'data-field'?: string;
}

const MESSAGES: Record<NumberProblem, string> = {
  invalid: 'form.number_invalid',
  whole: 'form.number_whole',
  decimals: 'form.number_decimals',
  digits: 'form.number_digits',
};

/**
 * A number typed as the interface language writes it: the decimal comma in
 * German and French, the point in English, thousands separators allowed
 * ("1.234,56", "1 234,56", "1,234.56"). Nothing typed is dropped: a text
 * that is no number of this field stays as typed and goes on as
 * UnparsedInput. Read-only, the value shows with its thousands separated.
 */
export function NumberTextInput({ value, onChange, decimals, minDecimals = 0, readOnly, onBlur, ...rest }: NumberTextInputProps) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const read = (typed: string): TextReading => {
    const n = parseNumberText(typed, lang, decimals);
    if (n.ok) return { ok: true, value: n.value };
    const vars = { example: numberExample(lang, decimals), max: String(n.problem === 'digits' ? MAX_SIGNIFICANT_DIGITS : decimals) };
    return { ok: false, messageKey: MESSAGES[n.problem], vars };
  };
  const { text, type, settle } = useTypedText(value, (v) => onChange(v as number | null | UnparsedInput), read, (v) => formatNumberInput(v, lang, minDecimals), lang);
  return (
    <TextInput
      {...rest}
      readOnly={readOnly}
      value={readOnly && typeof value !== 'object' ? formatNumberDisplay(value, lang, decimals > 0) : text}
      autoComplete="off"
      onChange={(e) => type(e.currentTarget.value)}
      onBlur={(e) => {
        settle();
        onBlur?.(e);
      }}
    />
  );
}

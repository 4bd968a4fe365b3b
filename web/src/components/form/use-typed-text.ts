import { useEffect, useRef, useState } from 'react';
import { UnparsedInput } from '../../lib/validation';

/** What a typed text reads as: a value, or a message key (with its values) saying why it is none. */
export type TextReading = { ok: true; value: unknown } | { ok: false; messageKey: string; vars?: Record<string, string> };

/**
 * The text of an input that reads typed text as a value (a date, a number):
 * the text stays exactly as typed while the value it reads as goes to
 * `onChange`, or an UnparsedInput when it reads as none. A value set from
 * outside (a reset, a reload, a picked day) and a change of language
 * rewrite the text; leaving the field rewrites it in the canonical form of
 * the value it was read as, never when it was not read.
 */
export function useTypedText(
  value: unknown,
  onChange: (value: unknown) => void,
  read: (text: string) => TextReading,
  show: (value: unknown) => string,
  lang: string,
) {
  const display = (v: unknown) => (v instanceof UnparsedInput ? v.text : show(v));
  const [text, setText] = useState(() => display(value));
  const known = useRef<{ value: unknown; lang: string }>({ value, lang });

  useEffect(() => {
    if (Object.is(known.current.value, value) && known.current.lang === lang) return;
    known.current = { value, lang };
    setText(display(value));
    // display reads nothing but value and lang.
  }, [value, lang]);

  const type = (next: string) => {
    setText(next);
    const reading = read(next);
    const out = reading.ok ? reading.value : new UnparsedInput(next, reading.messageKey, reading.vars);
    known.current = { value: out, lang };
    onChange(out);
  };

  /** The field was left: a text that was read shows as its value does. */
  const settle = () => {
    if (!(value instanceof UnparsedInput)) setText(display(value));
  };

  return { text, type, settle };
}

import { Popover, TextInput, type TextInputProps } from '@mantine/core';
import { Calendar } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, parseDateText } from '../../lib/dates';
import type { UnparsedInput } from '../../lib/validation';
import { type TextReading, useTypedText } from './use-typed-text';

export interface DateTextInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'> {
  /** 'YYYY-MM-DD', null, or text typed before that was no date. */
  value: unknown;
  /** The date typed or picked ('YYYY-MM-DD'), null when emptied, or the text when it is no date. */
  onChange: (value: string | null | UnparsedInput) => void;
  /** Days before it are not offered in the calendar ('YYYY-MM-DD'); a typed one stays, the form's rule says why it is refused. */
  minDate?: string;
  'data-field'?: string;
}

/** The text of a stored date in the input: the language's format, or the stored text when it is no date. */
function shownDate(value: unknown, lang: string): string {
  if (typeof value !== 'string' || value === '') return '';
  return formatDate(value.slice(0, 10), lang) || value;
}

/**
 * A date typed in the interface language's format (MM/DD/YYYY, TT.MM.JJJJ,
 * JJ/MM/AAAA, shown as the placeholder) or picked from a calendar. What is
 * typed stays as typed: a text that is no date (month 31, 29.02.2031) is
 * handed on as UnparsedInput for the form to report, never turned into
 * another day, and a day before `minDate` is kept for the form's rule to
 * report instead of being dropped.
 */
export function DateTextInput({ value, onChange, minDate, readOnly, onBlur, onClick, onKeyDown, placeholder, ...rest }: DateTextInputProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const format = t('form.date_placeholder');
  const read = (typed: string): TextReading => {
    const date = parseDateText(typed, lang);
    return date.ok ? { ok: true, value: date.value } : { ok: false, messageKey: 'form.date_invalid', vars: { format } };
  };
  const { text, type, settle } = useTypedText(value, (v) => onChange(v as string | null | UnparsedInput), read, (v) => shownDate(v, lang), lang);
  const [opened, setOpened] = useState(false);
  const day = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
  const [month, setMonth] = useState(() => day ?? dayjs().format('YYYY-MM-DD'));
  useEffect(() => {
    if (day) setMonth(day);
  }, [day]);

  return (
    <Popover opened={opened && !readOnly} position="bottom-start" trapFocus={false} withRoles={false} shadow="md">
      <Popover.Target>
        <TextInput
          {...rest}
          readOnly={readOnly}
          value={text}
          placeholder={readOnly ? undefined : (placeholder ?? format)}
          autoComplete="off"
          rightSection={readOnly ? undefined : <IconCalendar size={16} aria-hidden />}
          rightSectionPointerEvents="none"
          onChange={(e) => type(e.currentTarget.value)}
          onClick={(e) => {
            setOpened(true);
            onClick?.(e);
          }}
          onBlur={(e) => {
            settle();
            setOpened(false);
            onBlur?.(e);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpened(false);
            if (e.key === 'ArrowDown') setOpened(true);
            onKeyDown?.(e);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown onMouseDown={(e) => e.preventDefault()} data-dates-dropdown>
        <Calendar
          __preventFocus
          locale={lang}
          firstDayOfWeek={1}
          minDate={minDate}
          date={month}
          onDateChange={setMonth}
          getDayProps={(d) => ({
            selected: d === day,
            onClick: () => {
              onChange(d);
              setOpened(false);
            },
          })}
        />
      </Popover.Dropdown>
    </Popover>
  );
}

import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTicketOptions } from '../api/ticket-options';

export interface TicketOptionSelectProps {
  /** The ticket's list field: user_id, team_id, pos_id. */
  field: string;
  label: string;
  value: number | null;
  /** The label of the current value (it may not be among the first options). */
  valueLabel?: string | null;
  onChange: (value: number | null) => void;
  /** The ticket being edited: the server narrows the options by it. */
  record: Record<string, unknown>;
  required?: boolean;
  error?: string;
}

/** A select of a ticket field's options as the server offers them, searched on the server. */
export function TicketOptionSelect({ field, label, value, valueLabel, onChange, record, required, error }: TicketOptionSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const options = useTicketOptions(field, record, debounced.length >= 2 ? debounced : '');
  const data = useMemo(() => {
    const list = (options.data?.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
    if (value !== null && !list.some((o) => o.value === String(value))) list.unshift({ value: String(value), label: valueLabel ?? `#${value}` });
    return list;
  }, [options.data, value, valueLabel]);
  return (
    <Select
      label={label}
      required={required}
      error={error}
      searchable
      clearable={!required}
      nothingFoundMessage={t('kanban.no_options')}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      onSearchChange={setSearch}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

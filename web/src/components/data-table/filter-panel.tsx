import { Group, MultiSelect, NumberInput, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterCondition, FilterScalar } from '../../lib/data-provider';
import { setFieldFilter } from '../../lib/list-state';
import { type AttributeDefinition, isListKind } from '../../lib/table-definition';
import { RemoteSelect } from '../form/remote-select';

/** The filter input a field kind gets. */
export type FilterKind = 'text' | 'number' | 'date' | 'list' | 'options' | 'yesno' | null;

export function filterKindOf(attr: AttributeDefinition): FilterKind {
  const kind = attr.attribute_datatype_hint;
  if (attr.write_only || kind === 'password' || kind === 'file') return null;
  // Only stored fields are filtered on (the served `sortable`); computed values and multi-selects are not.
  if (!attr.sortable) return null;
  if (attr.type === 'bool') return 'yesno';
  if (attr.ref && (isListKind(kind) || attr.type === 'id')) return 'list';
  if (attr.options && attr.options.length > 0) return 'options';
  if (attr.type === 'date' || attr.type === 'datetime') return 'date';
  if ((attr.type === 'int' || attr.type === 'decimal') && !attr.ref) return 'number';
  if (attr.type === 'string') return 'text';
  return null;
}

const DAY = 'YYYY-MM-DD';

/** The date range shortcuts: Today, Yesterday, 7 days ago, This Month. */
export function datePresets(labels: { today: string; yesterday: string; sevenDays: string; thisMonth: string }, now = dayjs()) {
  const today = now.format(DAY);
  return [
    { value: [today, today] as [string, string], label: labels.today },
    { value: [now.subtract(1, 'day').format(DAY), now.subtract(1, 'day').format(DAY)] as [string, string], label: labels.yesterday },
    { value: [now.subtract(7, 'day').format(DAY), today] as [string, string], label: labels.sevenDays },
    { value: [now.startOf('month').format(DAY), now.endOf('month').format(DAY)] as [string, string], label: labels.thisMonth },
  ];
}

function condition(filters: FilterCondition[], field: string, op?: string): FilterCondition | undefined {
  return filters.find((c) => c.field === field && (op === undefined || c.op === op));
}

/**
 * The values a field's filter has chosen: its `in` list, or the single value
 * of an `eq` condition (what links from the dashboards and records carry).
 */
export function chosenValues(filters: FilterCondition[], field: string): FilterScalar[] {
  const list = condition(filters, field, 'in');
  if (list) return Array.isArray(list.value) ? list.value : [];
  const one = condition(filters, field, 'eq');
  return one && one.value !== undefined && one.value !== null && !Array.isArray(one.value) ? [one.value] : [];
}

function DebouncedText({ attr, filters, onChange }: FieldFilterProps) {
  const current = condition(filters, attr.attribute, 'contains');
  const [text, setText] = useState(String(current?.value ?? ''));
  useEffect(() => setText(String(current?.value ?? '')), [current?.value]);
  const commit = useDebouncedCallback((next: string) => {
    onChange(setFieldFilter(filters, attr.attribute, next.trim() ? [{ field: attr.attribute, op: 'contains', value: next.trim() }] : []));
  }, 500);
  return (
    <TextInput
      label={attr.attribute_i18n}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
      data-filter={attr.attribute}
    />
  );
}

interface FieldFilterProps {
  attr: AttributeDefinition;
  filters: FilterCondition[];
  onChange: (filters: FilterCondition[]) => void;
  /** The entity listed. */
  entity?: string;
}

function NumberRange({ attr, filters, onChange }: FieldFilterProps) {
  const { t } = useTranslation();
  const from = condition(filters, attr.attribute, 'gte')?.value;
  const to = condition(filters, attr.attribute, 'lte')?.value;
  const set = (nextFrom: unknown, nextTo: unknown) => {
    const conds: FilterCondition[] = [];
    if (typeof nextFrom === 'number') conds.push({ field: attr.attribute, op: 'gte', value: nextFrom });
    if (typeof nextTo === 'number') conds.push({ field: attr.attribute, op: 'lte', value: nextTo });
    onChange(setFieldFilter(filters, attr.attribute, conds));
  };
  const debounced = useDebouncedCallback(set, 500);
  return (
    <Group gap={6} grow align="flex-end" data-filter={attr.attribute}>
      <NumberInput
        label={attr.attribute_i18n}
        placeholder={t('grid.filter_from')}
        defaultValue={typeof from === 'number' ? from : ''}
        decimalScale={attr.type === 'decimal' ? 2 : 0}
        onChange={(v) => debounced(v, to)}
      />
      <NumberInput
        aria-label={`${attr.attribute_i18n} ${t('grid.filter_to')}`}
        placeholder={t('grid.filter_to')}
        defaultValue={typeof to === 'number' ? to : ''}
        decimalScale={attr.type === 'decimal' ? 2 : 0}
        onChange={(v) => debounced(from, v)}
      />
    </Group>
  );
}

function DateRange({ attr, filters, onChange }: FieldFilterProps) {
  const { t } = useTranslation();
  const current = condition(filters, attr.attribute, 'between');
  const range = Array.isArray(current?.value) ? (current.value as string[]) : [null, null];
  const value: [string | null, string | null] = [range[0]?.slice(0, 10) ?? null, range[1]?.slice(0, 10) ?? null];
  return (
    <DatePickerInput
      type="range"
      label={attr.attribute_i18n}
      value={value}
      valueFormat="D MMM YYYY"
      firstDayOfWeek={1}
      clearable
      allowSingleDateInRange
      presets={datePresets({
        today: t('grid.preset_today'),
        yesterday: t('grid.preset_yesterday'),
        sevenDays: t('grid.preset_7_days'),
        thisMonth: t('grid.preset_this_month'),
      })}
      onChange={([from, to]) => {
        if (!from || !to) {
          if (!from && !to) onChange(setFieldFilter(filters, attr.attribute, []));
          return;
        }
        const a = dayjs(from).format(DAY);
        const b = dayjs(to).format(DAY);
        // Dates only: on a date-time column the server reads a date as the whole day.
        const bounds: [FilterScalar, FilterScalar] = [a, b];
        onChange(setFieldFilter(filters, attr.attribute, [{ field: attr.attribute, op: 'between', value: bounds }]));
      }}
      data-filter={attr.attribute}
    />
  );
}

function ListFilter({ attr, filters, onChange, entity }: FieldFilterProps) {
  const { t } = useTranslation();
  const ids = chosenValues(filters, attr.attribute).map(Number);
  if (!attr.ref) return null;
  // A filter has no record: a field narrowed by a sibling would offer
  // nothing, so it lists the referenced rows without that narrowing (its
  // generic list); every other list field asks the options action as a field
  // of the listed entity. A sibling named without a target or link (a
  // responsible user's record, whose readers the server finds) narrows
  // nothing without a record.
  const bySibling = attr.ref.where?.some((m) => m.source !== undefined && (m.target !== undefined || m.via !== undefined)) ?? false;
  const refDef = bySibling ? { ...attr.ref, where: attr.ref.where?.filter((m) => m.source === undefined) } : attr.ref;
  return (
    <RemoteSelect
      refDef={refDef}
      label={attr.attribute_i18n}
      multiple
      value={ids}
      source={entity && !bySibling ? { entity, field: attr.attribute } : undefined}
      nothingFound={t('form.not_available', { field: attr.attribute_i18n })}
      onChange={(next) => {
        const list = Array.isArray(next) ? next : next === null ? [] : [next];
        onChange(setFieldFilter(filters, attr.attribute, list.length ? [{ field: attr.attribute, op: 'in', value: list }] : []));
      }}
      data-field={attr.attribute}
    />
  );
}

function OptionsFilter({ attr, filters, onChange }: FieldFilterProps) {
  const values = chosenValues(filters, attr.attribute).map(String);
  const numeric = attr.options?.every((o) => typeof o.value === 'number');
  return (
    <MultiSelect
      label={attr.attribute_i18n}
      data={(attr.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
      value={values}
      clearable
      onChange={(next) => {
        const list = next.map((v) => (numeric ? Number(v) : v));
        onChange(setFieldFilter(filters, attr.attribute, list.length ? [{ field: attr.attribute, op: 'in', value: list }] : []));
      }}
      data-filter={attr.attribute}
    />
  );
}

function YesNoFilter({ attr, filters, onChange }: FieldFilterProps) {
  const { t } = useTranslation();
  const current = condition(filters, attr.attribute, 'eq');
  return (
    <Select
      label={attr.attribute_i18n}
      data={[
        { value: '1', label: t('grid.yes') },
        { value: '0', label: t('grid.no') },
      ]}
      value={current ? String(current.value) : null}
      clearable
      placeholder={t('grid.any')}
      onChange={(v) =>
        onChange(setFieldFilter(filters, attr.attribute, v === null ? [] : [{ field: attr.attribute, op: 'eq', value: Number(v) }]))
      }
      data-filter={attr.attribute}
    />
  );
}

export interface FilterPanelProps {
  /** The entity listed: list filters offer the options of its fields (the options action). */
  entity?: string;
  attributes: AttributeDefinition[];
  filters: FilterCondition[];
  onChange: (filters: FilterCondition[]) => void;
  /** Clears every filter (the page shows the button). */
  onReset?: () => void;
}

/** The filter panel, built from the field kinds of the definition. */
export function FilterPanel({ entity, attributes, filters, onChange }: FilterPanelProps) {
  const { t } = useTranslation();
  const fields = attributes.filter((a) => filterKindOf(a) !== null);
  return (
    <Paper withBorder p="sm" radius="sm" role="search" aria-label={t('grid.filters')}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} spacing="sm" verticalSpacing="xs">
        {fields.map((attr) => {
          const props = { attr, filters, onChange, entity };
          switch (filterKindOf(attr)) {
            case 'text':
              return <DebouncedText key={attr.attribute} {...props} />;
            case 'number':
              return <NumberRange key={attr.attribute} {...props} />;
            case 'date':
              return <DateRange key={attr.attribute} {...props} />;
            case 'list':
              return <ListFilter key={attr.attribute} {...props} />;
            case 'options':
              return <OptionsFilter key={attr.attribute} {...props} />;
            case 'yesno':
              return <YesNoFilter key={attr.attribute} {...props} />;
            default:
              return null;
          }
        })}
      </SimpleGrid>
    </Paper>
  );
}

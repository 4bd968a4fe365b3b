import { Loader, MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dataProvider, rowLabel } from '../../lib/data-provider';
import { i18n } from '../../lib/i18n-instance';
import type { RefDefinition, Row } from '../../lib/table-definition';

/** Search starts at this many typed characters. */
export const SEARCH_MIN_CHARS = 2;
/** Typing pauses this long before the search runs. */
export const SEARCH_DEBOUNCE_MS = 500;
/** Options fetched per search. */
const OPTION_PAGE = 50;
/** The value of the hint that more options match than are shown. */
const MORE_OPTIONS = '__more__';

/** Default labels of some referenced entities (the specification's list labels). */
const DEFAULT_LABELS: Record<string, string[]> = {
  address: ['city_zip', 'city_name', 'address_street'],
  invoice: ['invoice_id', 'invoice_number', 'invoice_date'],
  contactperson: ['contactperson_firstname', 'contactperson_lastname'],
};

export function labelFieldsOf(ref: RefDefinition): string[] {
  return ref.label.length > 0 ? ref.label : (DEFAULT_LABELS[ref.table] ?? [ref.key]);
}

export interface SelectOption {
  value: string;
  label: string;
}

/** Where a list field's options come from: the server's options action for this field of this entity. */
export interface OptionsSource {
  /** The entity being edited (for a filter: the entity listed). */
  entity: string;
  /** The list field of that entity. */
  field: string;
}

/** A page of options; `hasMore` when the keyword should be narrowed to see the rest. */
export interface OptionsPage {
  options: SelectOption[];
  hasMore: boolean;
}

/**
 * The part of the record the options action gets: the sibling fields the
 * field's narrowing reads (the served `where`, which is the server's
 * OptionsWhere), empty ones as null. Nothing else: the server reads no other
 * value, a half-typed value elsewhere in the form must not fail the lookup,
 * and passwords or long texts have no business in it. The query key holds
 * exactly these values, so a cached answer always fits the record.
 */
export function optionsRecord(ref: RefDefinition | undefined, record?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of ref?.where ?? []) {
    if (m.source === undefined) continue;
    const v = record?.[m.source];
    out[m.source] = v === undefined || v === '' || v instanceof Blob ? null : v;
  }
  return out;
}

export interface RefOptionsQuery {
  /** The field whose options these are; without it, the referenced entity's generic list. */
  source?: OptionsSource;
  /** The record being edited (narrowing by sibling fields). */
  record?: Record<string, unknown>;
  enabled?: boolean;
}

/**
 * Fetches the options of a list field through the server's options action
 * (POST /api/?{entity} action options), which applies the field's narrowing
 * and the caller's limits and answers users who may not list the referenced
 * table. Without a `source` (a select that is no field of an entity) the
 * referenced entity's generic list is read, narrowed by the ref's `where`.
 */
export function useRefOptions(ref: RefDefinition | undefined, search: string, { source, record, enabled = true }: RefOptionsQuery = {}) {
  const keyword = search.trim().length >= SEARCH_MIN_CHARS ? search.trim() : '';
  const narrowing = source ? optionsRecord(ref, record) : (refConditions(ref, record) ?? null);
  return useQuery({
    // Starts with the referenced table: a new element created in a popup invalidates its options.
    queryKey: ['tables', 'options', ref?.table, source?.entity ?? null, source?.field ?? null, i18n.language, keyword, narrowing],
    enabled: Boolean(ref) && enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<OptionsPage> => {
      if (!ref) return { options: [], hasMore: false };
      if (source) {
        const answer = await dataProvider.options(
          source.entity,
          { field: source.field, data: optionsRecord(ref, record), search: keyword, perPage: OPTION_PAGE, page: 1 },
          signal,
        );
        return {
          options: answer.data.map((o) => ({ value: String(o.value), label: o.label || String(o.value) })),
          hasMore: Boolean(answer.has_more),
        };
      }
      const fields = labelFieldsOf(ref);
      const answer = await dataProvider.list(
        ref.table,
        { search: keyword, perPage: OPTION_PAGE, page: 1, orderBy: fields[0], orderDir: 'ASC', data: refConditions(ref, record) },
        signal,
      );
      return {
        options: answer.data.data.map((row: Row) => ({ value: String(row[ref.key]), label: rowLabel(row, fields) || String(row[ref.key]) })),
        hasMore: answer.data.has_more,
      };
    },
  });
}

/** The data conditions of a ref's `where` for the current record. */
export function refConditions(ref: RefDefinition | undefined, record?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!ref?.where || ref.where.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const m of ref.where) {
    // A narrowing through a link, or by a field of the row a sibling refers
    // to, is no condition on the rows' own columns: only the options action
    // (with a source) applies it.
    if (m.target === undefined || m.of !== undefined) continue;
    if (m.source !== undefined) {
      const v = record?.[m.source];
      const empty = v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
      // An empty sibling offers nothing, unless the narrowing holds only while it is filled.
      if (empty && m.if_filled) continue;
      if (empty) return { [m.target]: null };
      out[m.target] = v;
    } else if (m.value !== undefined) {
      out[m.target] = m.value;
    }
  }
  return out;
}

export interface RemoteSelectProps {
  refDef: RefDefinition;
  label?: ReactNode;
  /** A single id, or ids with `multiple`. */
  value: number | string | (number | string)[] | null | undefined;
  onChange: (value: number | number[] | null) => void;
  multiple?: boolean;
  /** Labels of the current value(s) (the row's `<field>__label`). */
  knownLabels?: Record<string, string>;
  /** Extra leading options (e.g. "All" as -1). */
  extraOptions?: SelectOption[];
  /** The list field these are the options of (the options action); without it, the ref's generic list. */
  source?: OptionsSource;
  /** The record being edited, for the narrowing by its sibling fields. */
  record?: Record<string, unknown>;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  placeholder?: string;
  /** "{field} is not available" */
  nothingFound: string;
  description?: ReactNode;
  clearable?: boolean;
  /** Reports the loaded options (options_filled). */
  onOptions?: (options: SelectOption[]) => void;
  'data-field'?: string;
  size?: 'xs' | 'sm';
  w?: number | string;
  'aria-label'?: string;
}

/**
 * A searchable select over the options of a list field (the server's options
 * action; without a `source`, the referenced entity's generic list, labelled
 * by its default label). Search runs from 2 typed characters, 500 ms after
 * typing stops (filter_all).
 */
export function RemoteSelect({
  refDef,
  label,
  value,
  onChange,
  multiple,
  knownLabels,
  extraOptions,
  source,
  record,
  error,
  required,
  disabled,
  readOnly,
  placeholder,
  nothingFound,
  description,
  clearable = true,
  onOptions,
  size,
  w,
  ...rest
}: RemoteSelectProps) {
  const { t } = useTranslation();
  const moreLabel = t('form.more_options');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);
  const [picked, setPicked] = useState<Record<string, string>>({});
  // Load options when the list opens, or at once when something depends on them.
  // A single select shows the chosen label in its search box: that is no search.
  const single = !multiple && value !== null && value !== undefined && value !== '' ? String(value) : null;
  const chosenLabel = single ? (picked[single] ?? knownLabels?.[single] ?? null) : null;
  const keyword = chosenLabel !== null && debounced === chosenLabel ? '' : debounced;
  // A value that came without its label (a filter from a link or a saved view)
  // loads the options at once, so it shows the record's label, not its id.
  const values = value === null || value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value];
  const unlabelled = values.some((v) => picked[String(v)] === undefined && knownLabels?.[String(v)] === undefined);
  const options = useRefOptions(refDef, keyword, { source, record, enabled: opened || Boolean(onOptions) || keyword !== '' || unlabelled });
  const loaded = options.data?.options;
  if (onOptions && loaded) queueMicrotask(() => onOptions(loaded));
  const hasMore = options.data?.hasMore ?? false;

  const data = useMemo(() => {
    const map = new Map<string, string>();
    for (const o of extraOptions ?? []) map.set(o.value, o.label);
    for (const o of loaded ?? []) map.set(o.value, o.label);
    const current = value === null || value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value];
    for (const v of current) {
      const key = String(v);
      if (!map.has(key)) map.set(key, picked[key] ?? knownLabels?.[key] ?? key);
    }
    const items: { value: string; label: string; disabled?: boolean }[] = [...map].map(([v, l]) => ({ value: v, label: l }));
    // More rows match than one page shows: say so, the keyword narrows them.
    if (hasMore) items.push({ value: MORE_OPTIONS, label: moreLabel, disabled: true });
    return items;
  }, [extraOptions, loaded, value, knownLabels, picked, hasMore, moreLabel]);

  const remember = (ids: string[]) => {
    const next: Record<string, string> = {};
    for (const id of ids) {
      const found = data.find((o) => o.value === id);
      if (found) next[id] = found.label;
    }
    setPicked((p) => ({ ...p, ...next }));
  };

  const common = {
    label,
    data,
    error,
    required,
    disabled,
    readOnly,
    variant: readOnly ? 'filled' : undefined,
    description,
    placeholder,
    size,
    w,
    searchable: true,
    searchValue: search,
    onSearchChange: setSearch,
    // The server filters; the browser keeps every option it was given.
    filter: ({ options: all }: { options: unknown[] }) => all,
    nothingFoundMessage: options.isFetching ? '…' : nothingFound,
    rightSection: options.isFetching ? <Loader size={14} /> : undefined,
    onDropdownOpen: () => setOpened(true),
    comboboxProps: { withinPortal: true },
    'data-field': rest['data-field'],
    'aria-label': rest['aria-label'],
  };

  if (multiple) {
    const current = Array.isArray(value) ? value.map(String) : value === null || value === undefined ? [] : [String(value)];
    return (
      <MultiSelect
        {...(common as object)}
        value={current}
        clearable={clearable}
        hidePickedOptions
        onChange={(ids) => {
          remember(ids);
          onChange(ids.map(Number));
        }}
      />
    );
  }
  return (
    <Select
      {...(common as object)}
      value={value === null || value === undefined || value === '' ? null : String(value)}
      clearable={clearable && !required}
      onChange={(id) => {
        if (id !== null) remember([id]);
        setSearch('');
        onChange(id === null ? null : Number(id));
      }}
    />
  );
}

import {
  ActionIcon,
  Checkbox,
  ColorInput,
  FileInput,
  Group,
  Input,
  PasswordInput,
  SegmentedControl,
  Select,
  Skeleton,
  Switch,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { DatePickerInput, DateTimePicker } from '@mantine/dates';
import { IconKey } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateFormatFor } from '../../lib/dates';
import { DECIMAL_PLACES } from '../../lib/numbers';
import { notifyError, notifySuccess } from '../../lib/notify';
import { type AttributeDefinition, type Literal, rangeEndField, type RefDefinition, type Row } from '../../lib/table-definition';
import type { FormValues } from '../../lib/validation';
import { DateTextInput } from './date-text-input';
import { NumberTextInput } from './number-text-input';
import { RemoteSelect, type SelectOption } from './remote-select';

const HtmlEditor = lazy(() => import('./html-editor'));

/** The smileys a priority can wear. */
export const SMILEYS = ['😀', '🙂', '😐', '🙁', '😡'] as const;

/** Largest file, in KB (the specification's size rule 100000). */
export const FILE_SIZE_KB = 100000;

/** Services the form needs from the app (kept out of the shared components). */
export interface FormServices {
  generatePassword?: () => Promise<string>;
  /** Extra controls next to a list field ("Create New Element", popup). */
  listExtras?: (attr: AttributeDefinition, select: (id: number, label: string) => void) => ReactNode;
}

export interface FieldInputProps {
  attr: AttributeDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur?: () => void;
  error?: string;
  required: boolean;
  readOnly: boolean;
  /** The whole record (conditions, min dates, list narrowing). */
  values: FormValues;
  /** The stored row (labels of foreign keys). */
  row?: Row | null;
  /** The unit selector's field, when the number has one. */
  unitAttr?: AttributeDefinition;
  unitError?: string;
  onUnitChange?: (value: unknown) => void;
  /** Every attribute, for sibling lookups (date ranges, min dates). */
  attributes: readonly AttributeDefinition[];
  services?: FormServices;
  onOptions?: (count: number) => void;
  setValue: (field: string, value: unknown) => void;
  /** The entity the record belongs to: list fields ask the server for their options as its fields. */
  entity?: string;
}

function optionValue(options: readonly { value: Literal }[] | undefined, text: string | null): Literal | null {
  if (text === null) return null;
  const found = options?.find((o) => String(o.value) === text);
  return found ? found.value : text;
}

function knownLabels(attr: AttributeDefinition, value: unknown, row?: Row | null, picked?: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...picked };
  const label = row?.[`${attr.attribute}__label`];
  if (label !== undefined && label !== null && value !== null && value !== undefined && !Array.isArray(value)) {
    out[String(value)] = String(label);
  }
  if (Array.isArray(value) && Array.isArray(label)) value.forEach((v, i) => (out[String(v)] = String(label[i] ?? v)));
  return out;
}

/** The minimum date of a date field: the other field of its date_after rule, today for not_past. */
export function minDateOf(attr: AttributeDefinition, values: FormValues): string | undefined {
  let min: string | undefined;
  for (const r of attr.rules ?? []) {
    if (r.rule === 'date_after' && r.field) {
      const other = values[r.field];
      if (typeof other === 'string' && other) min = other.slice(0, 10);
    }
    if (r.rule === 'not_past') min = dayjs().format('YYYY-MM-DD');
  }
  return min;
}

function unitRef(unitAttr: AttributeDefinition, key?: string): RefDefinition | undefined {
  if (!unitAttr.ref) return undefined;
  if (!key) return unitAttr.ref;
  return { ...unitAttr.ref, where: [...(unitAttr.ref.where ?? []), { target: 'unit_key', value: key }] };
}

function PasswordField({ attr, value, onChange, onBlur, error, required, readOnly, services }: FieldInputProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    if (!services?.generatePassword) return;
    setBusy(true);
    try {
      const password = await services.generatePassword();
      onChange(password);
      try {
        await navigator.clipboard.writeText(password);
        notifySuccess(t('form.password_copied'));
      } catch {
        notifyError(t('form.copy_failed'));
      }
    } catch {
      notifyError(t('form.error_short'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <PasswordInput
        style={{ flex: 1 }}
        label={attr.attribute_i18n}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.currentTarget.value)}
        onBlur={onBlur}
        error={error}
        required={required}
        readOnly={readOnly}
        autoComplete="new-password"
        data-field={attr.attribute}
      />
      {attr.generate && !readOnly && services?.generatePassword && (
        <Tooltip label={t('form.generate_password')}>
          <ActionIcon variant="default" size="lg" onClick={generate} loading={busy} aria-label={t('form.generate_password')} mb={error ? 22 : 0}>
            <IconKey size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

function FileField({ attr, value, onChange, error, required, readOnly }: FieldInputProps) {
  const { t } = useTranslation();
  const accept = (attr.accept?.length ? attr.accept : ['.pdf']).map((e) => (e.startsWith('.') ? e : `.${e}`));
  if (readOnly || (typeof value === 'string' && value)) {
    return <TextInput label={attr.attribute_i18n} value={typeof value === 'string' ? value : ''} readOnly variant="filled" data-field={attr.attribute} />;
  }
  return (
    <FileInput
      label={attr.attribute_i18n}
      accept={accept.join(',')}
      value={value instanceof File ? value : null}
      clearable
      error={error}
      required={required}
      data-field={attr.attribute}
      onChange={(file) => {
        if (!file) return onChange(null);
        const ext = `.${file.name.split('.').pop()?.toLowerCase() ?? ''}`;
        if (!accept.includes(ext)) {
          notifyError(t('form.file_type', { types: accept.join(', ') }));
          return;
        }
        // One file: choosing the same file (name and size) again changes nothing.
        if (value instanceof File && value.name === file.name && value.size === file.size) return;
        onChange(file);
      }}
    />
  );
}

/** The input of one field, chosen by its kind (attribute_datatype_hint). */
export function FieldInput(props: FieldInputProps) {
  const { t, i18n } = useTranslation();
  const { attr, value, onChange, onBlur, error, required, readOnly, values, row, unitAttr, unitError, onUnitChange, services, onOptions, setValue, entity } =
    props;
  const [picked, setPicked] = useState<Record<string, string>>({});
  const label = attr.attribute_i18n;
  const common = {
    label,
    description: attr.attribute_help || undefined,
    error,
    required,
    readOnly,
    onBlur,
    'data-field': attr.attribute,
    variant: readOnly ? 'filled' : undefined,
  } as const;
  const kind = attr.attribute_datatype_hint;
  const notAvailable = t('form.not_available', { field: label });

  if (attr.ref && (kind === 'list' || kind === 'list_select' || kind === 'custom_list' || attr.type === 'id')) {
    const extra: SelectOption[] = (attr.options ?? []).filter((o) => String(o.value) === '-1').map((o) => ({ value: '-1', label: o.label || t('form.all') }));
    return (
      <Group align="flex-end" gap="xs" wrap="wrap">
        <div style={{ flex: '1 1 0', minWidth: 0 }}>
          <RemoteSelect
            refDef={attr.ref}
            label={label}
            value={value as number | number[] | null}
            multiple={attr.multiple}
            onChange={(v) => {
              onChange(v);
              onBlur?.();
            }}
            knownLabels={knownLabels(attr, value, row, picked)}
            extraOptions={extra}
            source={entity ? { entity, field: attr.attribute } : undefined}
            record={values}
            error={error}
            required={required}
            readOnly={readOnly}
            nothingFound={notAvailable}
            onOptions={onOptions ? (o) => onOptions(o.length) : undefined}
            data-field={attr.attribute}
          />
        </div>
        {!readOnly &&
          services?.listExtras?.(attr, (id, text) => {
            setPicked((p) => ({ ...p, [String(id)]: text }));
            onChange(attr.multiple ? [...(Array.isArray(value) ? value : []), id] : id);
          })}
      </Group>
    );
  }

  switch (kind) {
    case 'textarea':
      return <Textarea {...common} autosize minRows={3} maxRows={12} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'html':
      return (
        <Suspense fallback={<Skeleton height={160} />}>
          <HtmlEditor label={label} value={String(value ?? '')} onChange={onChange} onBlur={onBlur} error={error} required={required} readOnly={readOnly} field={attr.attribute} />
        </Suspense>
      );
    case 'yesno':
      return (
        <Select
          {...common}
          data={[
            { value: '1', label: t('grid.yes') },
            { value: '0', label: t('grid.no') },
          ]}
          value={value === null || value === undefined ? '0' : String(Number(value))}
          allowDeselect={false}
          onChange={(v) => onChange(v === null ? 0 : Number(v))}
        />
      );
    case 'custom-select':
      return (
        <Select
          {...common}
          data={(attr.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
          value={value === null || value === undefined || value === '' ? null : String(value)}
          clearable={!required}
          nothingFoundMessage={notAvailable}
          onChange={(v) => onChange(optionValue(attr.options, v))}
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          mt="lg"
          label={label}
          checked={value === 1 || value === '1' || value === true}
          disabled={readOnly}
          error={error}
          onChange={(e) => onChange(e.currentTarget.checked ? 1 : 0)}
          data-field={attr.attribute}
        />
      );
    case 'boolean':
      return (
        <Switch
          mt="lg"
          label={label}
          checked={value === 1 || value === '1' || value === true}
          disabled={readOnly}
          error={error}
          onChange={(e) => onChange(e.currentTarget.checked ? 1 : 0)}
          data-field={attr.attribute}
        />
      );
    case 'file':
      return <FileField {...props} />;
    case 'password':
      return <PasswordField {...props} />;
    case 'color':
      return <ColorInput {...common} format="hex" value={String(value ?? '')} onChange={onChange} />;
    case 'smiley':
      return (
        <Input.Wrapper label={label} error={error} required={required} data-field={attr.attribute}>
          <div>
            <SegmentedControl
              mt={4}
              readOnly={readOnly}
              data={SMILEYS.map((s) => ({ value: s, label: <span style={{ fontSize: 18 }}>{s}</span> }))}
              value={typeof value === 'string' && value ? value : ''}
              onChange={onChange}
            />
          </div>
        </Input.Wrapper>
      );
    case 'date-picker': {
      const end = rangeEndField(attr.attribute);
      const hasEnd = Boolean(end && props.attributes.some((a) => a.attribute === end));
      return (
        <DatePickerInput
          {...common}
          type="range"
          allowSingleDateInRange
          valueFormat={dateFormatFor(i18n.language)}
          firstDayOfWeek={1}
          clearable={!required}
          value={[(value as string | null) ?? null, hasEnd && end ? ((values[end] as string | null) ?? null) : null]}
          onChange={([from, to]) => {
            onChange(from ? dayjs(from).format('YYYY-MM-DD') : null);
            if (hasEnd && end) setValue(end, to ? dayjs(to).format('YYYY-MM-DD') : null);
          }}
        />
      );
    }
  }

  if (attr.type === 'date' || attr.type === 'datetime' || kind === 'date') {
    const minDate = minDateOf(attr, values);
    if (attr.type === 'datetime') {
      return (
        <DateTimePicker
          {...common}
          valueFormat={`${dateFormatFor(i18n.language)} HH:mm`}
          firstDayOfWeek={1}
          clearable={!required}
          minDate={minDate}
          value={typeof value === 'string' && value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : null}
          // Shown in local time; sent as RFC 3339 UTC, the server's form.
          onChange={(v) => onChange(v ? dayjs(v).toISOString().replace(/\.\d{3}Z$/, 'Z') : null)}
        />
      );
    }
    // Typed as the language writes dates and kept as typed: a text that is no
    // date, or a day before the date_after field, is reported by the form.
    return (
      <DateTextInput
        {...common}
        minDate={minDate}
        value={typeof value === 'string' && value ? value.slice(0, 10) : value}
        onChange={onChange}
      />
    );
  }

  if (attr.type === 'int' || attr.type === 'decimal' || kind === 'number' || kind === 'decimal') {
    const decimal = attr.type === 'decimal' || kind === 'decimal';
    const input = (
      <NumberTextInput
        {...common}
        style={unitAttr ? { flex: 1 } : undefined}
        decimals={decimal ? DECIMAL_PLACES : 0}
        minDecimals={decimal ? 2 : 0}
        value={value}
        onChange={onChange}
      />
    );
    if (!unitAttr) return input;
    return (
      <Group align="flex-start" gap="xs" wrap="nowrap">
        {input}
        {unitAttr.ref ? (
          <RemoteSelect
            refDef={unitRef(unitAttr, attr.unit?.key) ?? unitAttr.ref}
            label={unitAttr.attribute_i18n}
            value={values[unitAttr.attribute] as number | null}
            onChange={(v) => onUnitChange?.(v)}
            knownLabels={knownLabels(unitAttr, values[unitAttr.attribute], row)}
            error={unitError}
            required
            readOnly={readOnly}
            nothingFound={t('form.not_available', { field: unitAttr.attribute_i18n })}
            w={150}
            data-field={unitAttr.attribute}
          />
        ) : (
          <Select
            label={unitAttr.attribute_i18n}
            data={(unitAttr.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
            value={values[unitAttr.attribute] == null ? null : String(values[unitAttr.attribute])}
            onChange={(v) => onUnitChange?.(optionValue(unitAttr.options, v))}
            error={unitError}
            required
            readOnly={readOnly}
            w={150}
            data-field={unitAttr.attribute}
          />
        )}
      </Group>
    );
  }

  // A computed value with fixed choices (a ticket's deadline status) shows its label, not its code.
  if (readOnly && attr.options?.length) {
    const option = attr.options.find((o) => String(o.value) === String(value));
    return <TextInput {...common} value={option?.label ?? (value === null || value === undefined ? '' : String(value))} />;
  }

  const email = attr.rules?.some((r) => r.rule === 'email');
  return (
    <TextInput
      {...common}
      type={email ? 'email' : 'text'}
      value={value === null || value === undefined ? '' : String(value)}
      maxLength={attr.attribute_datatype_len > 0 ? attr.attribute_datatype_len + 50 : undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

import dayjs from 'dayjs';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttributeDefinition, Row } from '../../lib/table-definition';
import {
  fillPlaceholders,
  type FormValues,
  isEmpty,
  isVisible,
  isWritable,
  UnparsedInput,
  type ValidationEnv,
  validateField,
  validateRecord,
} from '../../lib/validation';

export type FormMode = 'create' | 'update' | 'view';

/** The starting values: defaults on create (booleans 0), the stored row otherwise (empty booleans 0). */
export function initialValues(attrs: readonly AttributeDefinition[], mode: FormMode, row?: Row | null): FormValues {
  const out: FormValues = {};
  for (const a of attrs) {
    if (mode === 'create') {
      const preset = row?.[a.attribute];
      out[a.attribute] = preset !== undefined ? preset : (a.default ?? (a.type === 'bool' ? 0 : a.multiple ? [] : null));
    } else {
      const v = row?.[a.attribute];
      out[a.attribute] = v === undefined ? null : v;
      if (a.type === 'bool' && isEmpty(out[a.attribute])) out[a.attribute] = 0;
    }
  }
  return out;
}

/** The data a create or update sends: visible, writable fields; empty booleans as 0. */
export function payloadOf(attrs: readonly AttributeDefinition[], values: FormValues, creating: boolean, env: Pick<ValidationEnv, 'optionsFilled'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const units = new Set(attrs.flatMap((a) => (a.unit ? [a.unit.field] : [])));
  for (const a of attrs) {
    if (!isWritable(a, creating)) continue;
    if (!isVisible(a, values, { creating, ...env }) && !units.has(a.attribute)) continue;
    let v = values[a.attribute];
    if (a.type === 'bool') v = v === true || v === 1 || v === '1' ? 1 : 0;
    else if (typeof v === 'string' && v.trim() === '' && a.type !== 'string') v = null;
    else if (v instanceof File) v = v.name;
    else if (v instanceof UnparsedInput) v = v.text; // validate() stops it first; the server would refuse it
    if (a.attribute_datatype_hint === 'password' && isEmpty(v)) continue; // an empty password keeps the old one
    out[a.attribute] = v === undefined ? null : v;
  }
  return out;
}

/**
 * Whether a field's value is still the stored one. Every empty value (null,
 * a cleared text, an empty list) counts as the same: a field typed into and
 * cleared again holds nothing to save, so an optional form left that way
 * is not a change that must be validated or confirmed before leaving.
 */
function unchanged(value: unknown, stored: unknown): boolean {
  if (isEmpty(value) && isEmpty(stored)) return true;
  return JSON.stringify(value ?? null) === JSON.stringify(stored ?? null);
}

export interface RecordFormState {
  values: FormValues;
  errors: Record<string, string>;
  dirty: boolean;
  mode: FormMode;
  attributes: readonly AttributeDefinition[];
  env: ValidationEnv;
  setValue: (field: string, value: unknown) => void;
  setValues: (patch: FormValues) => void;
  /** A field lost the focus (messages still wait for the first save). */
  touch: (field: string) => void;
  /** Validates everything; true when the record may be sent. */
  validate: () => boolean;
  /** Field errors of a 422 answer. */
  setServerErrors: (errors: Record<string, string>) => void;
  /** The data to send. */
  payload: () => Record<string, unknown>;
  /** Starts over from a (reloaded) row. */
  reset: (row?: Row | null) => void;
  /** Marks the form as saved (not dirty). */
  markSaved: () => void;
  /** Reports the options of a list field (options_filled). */
  reportOptions: (field: string, count: number) => void;
}

/** The state of a generic form: values, client validation from the served rules, server errors. */
/**
 * The values after `field` is set to `value`: a list field whose options the
 * field narrows (its served `where` reads it: the location by the point of
 * sale, the point of sale by the company) loses its choice when the value
 * changes, since that choice may no longer be offered; and so on down the
 * chain. Setting the same value again clears nothing.
 */
export function withNarrowedCleared(
  attributes: readonly AttributeDefinition[],
  values: FormValues,
  field: string,
  value: unknown,
): FormValues {
  if (JSON.stringify(values[field] ?? null) === JSON.stringify(value ?? null)) return { ...values, [field]: value };
  const next: FormValues = { ...values, [field]: value };
  const queue = [field];
  const cleared = new Set(queue);
  while (queue.length > 0) {
    const source = queue.shift();
    for (const a of attributes) {
      if (cleared.has(a.attribute) || !a.ref?.where?.some((m) => m.source === source)) continue;
      cleared.add(a.attribute);
      queue.push(a.attribute);
      if (!isEmpty(next[a.attribute])) next[a.attribute] = a.multiple ? [] : null;
    }
  }
  return next;
}

export function useRecordForm(attributes: readonly AttributeDefinition[], mode: FormMode, row?: Row | null): RecordFormState {
  const { t } = useTranslation();
  const creating = mode === 'create';
  const [values, setAll] = useState<FormValues>(() => initialValues(attributes, mode, row));
  const [stored, setStored] = useState<FormValues>(() => initialValues(attributes, mode, row));
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const optionCounts = useRef<Record<string, number>>({});
  const [, bump] = useState(0);

  const labels = useMemo(() => new Map(attributes.map((a) => [a.attribute, a.attribute_i18n])), [attributes]);
  const env: ValidationEnv = useMemo(
    () => ({
      creating,
      stored: creating ? null : stored,
      today: dayjs().format('YYYY-MM-DD'),
      label: (field) => labels.get(field) ?? field,
      t: (key, vars) => fillPlaceholders(t(key, vars), vars),
      optionsFilled: (field) => (optionCounts.current[field] ?? 0) > 0,
    }),
    [creating, stored, labels, t],
  );

  /** Client errors plus the unit selectors, which are required when shown. */
  const clientErrors = useCallback(
    (record: FormValues) => {
      const errors = validateRecord(attributes, record, env);
      for (const a of attributes) {
        if (!a.unit || !isWritable(a, creating) || !isVisible(a, record, env)) continue;
        if (isEmpty(record[a.unit.field]) && !errors[a.unit.field]) {
          errors[a.unit.field] = env.t('validation.required', { field: labels.get(a.unit.field) ?? a.unit.field });
        }
      }
      return errors;
    },
    [attributes, env, creating, labels, t],
  );

  const all = useMemo(() => clientErrors(values), [clientErrors, values]);
  const errors = useMemo(() => {
    const shown: Record<string, string> = {};
    // Client messages appear from the first save on (a message appearing on
    // blur would move the Save button under the pointer), then live.
    if (submitted) Object.assign(shown, all);
    for (const [field, message] of Object.entries(server)) if (!shown[field]) shown[field] = message;
    return shown;
  }, [all, server, submitted]);

  const dirty = useMemo(
    () => mode !== 'view' && attributes.some((a) => !unchanged(values[a.attribute], stored[a.attribute])),
    [attributes, values, stored, mode],
  );

  const setValue = useCallback((field: string, value: unknown) => {
    setAll((v) => withNarrowedCleared(attributes, v, field, value));
    setServer((s) => {
      if (!(field in s)) return s;
      const { [field]: _gone, ...rest } = s;
      return rest;
    });
  }, [attributes]);

  return {
    values,
    errors,
    dirty,
    mode,
    attributes,
    env,
    setValue,
    setValues: (patch) => setAll((v) => ({ ...v, ...patch })),
    touch: () => undefined,
    validate: () => {
      setSubmitted(true);
      return Object.keys(clientErrors(values)).length === 0;
    },
    setServerErrors: setServer,
    payload: () => payloadOf(attributes, values, creating, env),
    reset: (next) => {
      const fresh = initialValues(attributes, mode, next ?? row);
      setAll(fresh);
      setStored(fresh);
      setSubmitted(false);
      setServer({});
    },
    markSaved: () => setStored(values),
    reportOptions: (field, count) => {
      if (optionCounts.current[field] !== count) {
        optionCounts.current[field] = count;
        bump((n) => n + 1);
      }
    },
  };
}

/** One field's current error, for callers that validate a single field. */
export function fieldError(attr: AttributeDefinition, values: FormValues, env: ValidationEnv): string | null {
  return validateField(attr, values, env);
}

/**
 * The browser's rule engine: evaluates the served Rule and Cond JSON with the
 * semantics of internal/validate on the server (validate.go, cond.go,
 * values.go), so the user sees the server's messages before saving.
 *
 *  - "Empty" is null/undefined, a blank string or an empty list; 0 is filled.
 *  - A field is validated only when it is visible: writable, not hidden in
 *    this form (create or update) and its show_when holds.
 *  - Rules run in served order; the first failing rule is the field's error.
 *    A rule with `when` applies only while `when` holds.
 *  - Every rule except required and required_if passes an empty value.
 *  - Text a date or number input could not read (UnparsedInput) is the
 *    field's error before any rule: the server would refuse its type.
 */
import type { AttributeDefinition, Cond, Literal, Rule } from './table-definition';

/** A record being edited: field → value (wire form: numbers, 'YYYY-MM-DD', lists of ids). */
export type FormValues = Record<string, unknown>;

/**
 * Text typed into a date or number input that does not read as a value of
 * its kind ("31.02.2031", "12,5x"). The form keeps it as typed, so the input
 * goes on showing it; its validation reports `messageKey`, and a payload
 * carries the text itself, which the server refuses, never an older value.
 */
export class UnparsedInput {
  constructor(
    readonly text: string,
    readonly messageKey: string,
    readonly vars: Record<string, string> = {},
  ) {}
}

/** Translation function: key and interpolation values. */
export type Translate = (key: string, values?: Record<string, string>) => string;

export interface ValidationEnv {
  /** A create (fields hidden on create are skipped) or an update. */
  creating: boolean;
  /** The stored record before an update (not_past passes unchanged values). */
  stored?: FormValues | null;
  /** Today, 'YYYY-MM-DD'. */
  today: string;
  /** The translated label of a field ({field}, {attribute}). */
  label: (field: string) => string;
  /** Translates message keys. */
  t: Translate;
  /** Whether list field `field` has at least one option (options_filled). */
  optionsFilled?: (field: string, record: FormValues) => boolean;
}

/**
 * Fills `{name}` placeholders: the server's message catalogue (served with
 * the UI texts) writes them with single braces, i18next with double ones.
 */
export function fillPlaceholders(text: string, values: Record<string, string> = {}): string {
  return text.replace(/(?<!\{)\{(\w+)\}(?!\})/g, (whole, name: string) => values[name] ?? whole);
}

/** Message keys of the rules, as the server names them. */
export const RULE_MESSAGES = {
  required: 'validation.required',
  max: 'validation.max',
  max_value: 'validation.max_value',
  min_value: 'validation.min_value',
  size: 'validation.size',
  email: 'validation.email',
  regex: 'validation.regex',
  date_after: 'validation.date_after',
  required_if_null: 'validation.required_if_null',
  only_one_of: 'validation.only_one_of',
  lower: 'validation.lower',
  not_past: 'validation.not_past',
} as const;

/** A file as the file field holds it before upload. */
interface FileLike {
  name: string;
  size: number;
}

function isFileLike(v: unknown): v is FileLike {
  return typeof v === 'object' && v !== null && 'size' in v && 'name' in v;
}

/** True for the empty value: null, undefined, a blank string, an empty list. */
export function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/** Canonical text form: 1 and '1' are equal; booleans 1/0. */
export function canonicalText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  if (v instanceof UnparsedInput) return v.text;
  if (isFileLike(v)) return v.name;
  return String(v);
}

function truthy(v: unknown): boolean {
  if (isEmpty(v)) return false;
  if (Array.isArray(v)) return v.length > 0;
  const text = canonicalText(v).toLowerCase();
  return text !== '0' && text !== 'false';
}

function inValues(v: unknown, values: readonly Literal[] = []): boolean {
  if (isEmpty(v)) return false;
  const texts = values.map((x) => canonicalText(x));
  if (Array.isArray(v)) return v.some((item) => texts.includes(canonicalText(item)));
  return texts.includes(canonicalText(v));
}

/** Evaluates condition `c` over `record` (schema.Cond semantics). */
export function holds(c: Cond, record: FormValues, env?: Pick<ValidationEnv, 'optionsFilled'>): boolean {
  switch (c.op) {
    case 'all':
      return (c.conds ?? []).every((sub) => holds(sub, record, env));
    case 'any':
      return (c.conds ?? []).some((sub) => holds(sub, record, env));
    case 'empty':
      return isEmpty(record[c.field ?? '']);
    case 'filled':
      return !isEmpty(record[c.field ?? '']);
    case 'truthy':
      return truthy(record[c.field ?? '']);
    case 'falsy':
      return !truthy(record[c.field ?? '']);
    case 'in':
      return inValues(record[c.field ?? ''], c.values);
    case 'not_in':
      return !inValues(record[c.field ?? ''], c.values);
    case 'options_filled':
      return env?.optionsFilled ? env.optionsFilled(c.field ?? '', record) : false;
  }
  return false;
}

/** True when the field takes part in this form: writable, not hidden here, show_when holds. */
export function isVisible(attr: AttributeDefinition, record: FormValues, env: Pick<ValidationEnv, 'creating' | 'optionsFilled'>): boolean {
  if (env.creating ? attr.hidden_on_create : attr.hidden_on_update) return false;
  if (attr.show_when && !holds(attr.show_when, record, env)) return false;
  return true;
}

/** Whether the field is editable in the form (shown but read-only otherwise). */
export function isWritable(attr: AttributeDefinition, creating: boolean): boolean {
  if (attr.read_only || attr.derived) return false;
  if (!creating && attr.immutable) return false;
  return true;
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;

/** One bare address, or several separated by ',' or ';'. */
export function validEmails(s: string): boolean {
  const parts = s.split(/[,;]/).filter((p) => p !== '');
  if (parts.length === 0) return false;
  return parts.every((p) => {
    const trimmed = p.trim();
    return trimmed !== '' && EMAIL.test(trimmed);
  });
}

function matches(pattern: string, s: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(s);
  } catch {
    try {
      return new RegExp(pattern).test(s);
    } catch {
      return true; // a pattern the browser cannot read is left to the server
    }
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Orders two filled values: numbers numerically, a date against a date-time
 * by the date part, other text as text. null when they cannot be compared.
 */
export function compareValues(a: unknown, b: unknown): number | null {
  const x = toNumber(a);
  const y = toNumber(b);
  if (typeof a === 'number' || typeof b === 'number') {
    if (x === null || y === null) return null;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  let sa = a.trim().replace('T', ' ');
  let sb = b.trim().replace('T', ' ');
  if (DATE_ONLY.test(sa) !== DATE_ONLY.test(sb)) {
    sa = sa.slice(0, 10);
    sb = sb.slice(0, 10);
  }
  if (x !== null && y !== null && !/^\d{4}-/.test(sa)) return x < y ? -1 : x > y ? 1 : 0;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  return canonicalText(a) === canonicalText(b);
}

function fail(attr: AttributeDefinition, rule: Rule, key: string, env: ValidationEnv, args: Record<string, string> = {}): string {
  const values = { field: env.label(attr.attribute), ...args };
  if (rule.message) {
    // A declared message replaces the built-in one: a key or a text.
    return /^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(rule.message) ? env.t(rule.message, values) : rule.message;
  }
  return env.t(key, values);
}

/** The served rules of a field, plus the requirement when the served list lacks it. */
export function rulesOf(attr: AttributeDefinition): Rule[] {
  const rules = [...(attr.rules ?? [])];
  const hasRequirement = rules.some((r) => r.rule === 'required' || r.rule === 'required_if');
  if (!hasRequirement && attr.type !== 'bool') {
    if (attr.required) rules.unshift({ rule: 'required' });
    else if (attr.required_when) rules.unshift({ rule: 'required_if', when: attr.required_when });
  }
  return rules;
}

function checkRule(attr: AttributeDefinition, rule: Rule, record: FormValues, env: ValidationEnv): string | null {
  const v = record[attr.attribute];
  switch (rule.rule) {
    case 'required':
      return isEmpty(v) ? fail(attr, rule, RULE_MESSAGES.required, env) : null;
    case 'required_if':
      return rule.when && holds(rule.when, record, env) && isEmpty(v) ? fail(attr, rule, RULE_MESSAGES.required, env) : null;
    case 'required_if_null': {
      const other = record[rule.field ?? ''];
      const attribute = env.label(rule.field ?? '');
      if (isEmpty(v) && isEmpty(other)) return fail(attr, rule, RULE_MESSAGES.required_if_null, env, { attribute });
      if (!isEmpty(v) && !isEmpty(other)) return fail(attr, rule, RULE_MESSAGES.only_one_of, env, { attribute });
      return null;
    }
  }
  if (isEmpty(v)) return null;
  const limit = rule.value === undefined ? '' : String(rule.value);
  switch (rule.rule) {
    case 'max': {
      if (typeof v === 'string' && [...v].length > Number(rule.value)) {
        return fail(attr, rule, RULE_MESSAGES.max, env, { length: limit });
      }
      return null;
    }
    case 'max_value':
    case 'min_value': {
      const x = toNumber(v);
      const bound = toNumber(rule.value);
      if (x === null || bound === null) return null;
      if (rule.rule === 'max_value' && x > bound) return fail(attr, rule, RULE_MESSAGES.max_value, env, { max: limit });
      if (rule.rule === 'min_value' && x < bound) return fail(attr, rule, RULE_MESSAGES.min_value, env, { min: limit });
      return null;
    }
    case 'size': {
      // The value of a size rule is a size in KB; files report bytes.
      const bytes = isFileLike(v) ? v.size : toNumber(v);
      const kb = toNumber(rule.value);
      if (bytes !== null && kb !== null && bytes > kb * 1024) return fail(attr, rule, RULE_MESSAGES.size, env, { size: limit });
      return null;
    }
    case 'email':
      return validEmails(canonicalText(v)) ? null : fail(attr, rule, RULE_MESSAGES.email, env);
    case 'regex':
      return matches(rule.pattern ?? '', canonicalText(v)) ? null : fail(attr, rule, RULE_MESSAGES.regex, env);
    case 'date_after':
    case 'lower': {
      const other = record[rule.field ?? ''];
      if (isEmpty(other)) return null;
      const c = compareValues(v, other);
      if (c === null) return null;
      const attribute = env.label(rule.field ?? '');
      if (rule.rule === 'date_after' && c < 0) return fail(attr, rule, RULE_MESSAGES.date_after, env, { attribute });
      if (rule.rule === 'lower' && c > 0) return fail(attr, rule, RULE_MESSAGES.lower, env, { attribute });
      return null;
    }
    case 'not_past': {
      const changed = !env.stored || !sameValue(env.stored[attr.attribute], v);
      const day = canonicalText(v).slice(0, 10);
      return changed && env.today !== '' && day < env.today ? fail(attr, rule, RULE_MESSAGES.not_past, env) : null;
    }
  }
  return null;
}

/** The first failing rule's message of one field, or null. Invisible and read-only fields pass. */
export function validateField(attr: AttributeDefinition, record: FormValues, env: ValidationEnv): string | null {
  if (!isWritable(attr, env.creating) || !isVisible(attr, record, env)) return null;
  const typed = record[attr.attribute];
  if (typed instanceof UnparsedInput) return env.t(typed.messageKey, typed.vars);
  for (const rule of rulesOf(attr)) {
    if (rule.when && rule.rule !== 'required_if' && !holds(rule.when, record, env)) continue;
    const message = checkRule(attr, rule, record, env);
    if (message) return message;
  }
  return null;
}

/** Validates a record: field → message for every failing field. */
export function validateRecord(attrs: readonly AttributeDefinition[], record: FormValues, env: ValidationEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attr of attrs) {
    const message = validateField(attr, record, env);
    if (message) out[attr.attribute] = message;
  }
  return out;
}

/** True when the field must be filled now (the asterisk of the form). */
export function isRequiredNow(attr: AttributeDefinition, record: FormValues, env: Pick<ValidationEnv, 'optionsFilled'>): boolean {
  if (attr.type === 'bool' || attr.read_only) return false;
  return rulesOf(attr).some((r) => r.rule === 'required' || (r.rule === 'required_if' && !!r.when && holds(r.when, record, env)));
}

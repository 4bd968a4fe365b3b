import { describe, expect, it } from 'vitest';
import en from '../../../internal/i18n/locales/en.json';
import type { AttributeDefinition, Cond, Rule } from './table-definition';
import {
  compareValues,
  type FormValues,
  holds,
  isEmpty,
  isRequiredNow,
  isVisible,
  validateField,
  validateRecord,
  validEmails,
  type ValidationEnv,
} from './validation';

const texts = en as Record<string, string>;
/** Renders the real English texts, as i18next would. */
const t = (key: string, values: Record<string, string> = {}) =>
  (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

const LABELS: Record<string, string> = {
  name: 'Name',
  begin: 'Begin date',
  end: 'End date',
  total: 'Total units',
  part: 'Customer units',
  percent: 'Percent change',
  points: 'Point change',
  company_id: 'Company',
  partnercompany_id: 'Partner company',
  email: 'Email',
  file: 'File',
  deadline: 'Deadline',
};

function env(extra: Partial<ValidationEnv> = {}): ValidationEnv {
  return { creating: true, today: '2026-11-22', label: (f) => LABELS[f] ?? f, t, ...extra };
}

function attr(attribute: string, rules: Rule[], extra: Partial<AttributeDefinition> = {}): AttributeDefinition {
  return {
    attribute,
    attribute_i18n: LABELS[attribute] ?? attribute,
    attribute_regexp: '',
    attribute_regexp_failure_message: '',
    attribute_datatype_hint: 'text',
    attribute_datatype_len: 0,
    type: 'string',
    required: rules.some((r) => r.rule === 'required'),
    rules,
    ...extra,
  };
}

const check = (a: AttributeDefinition, record: FormValues, e = env()) => validateField(a, record, e);

describe('conditions (schema.Cond)', () => {
  const rec = { a: '', b: 0, c: 1, d: 'extern_client', e: [3, 4], f: [], g: 'false', h: null };
  const cases: [Cond, boolean][] = [
    [{ op: 'empty', field: 'a' }, true],
    [{ op: 'empty', field: 'b' }, false], // 0 is filled
    [{ op: 'empty', field: 'f' }, true],
    [{ op: 'empty', field: 'h' }, true],
    [{ op: 'filled', field: 'b' }, true],
    [{ op: 'filled', field: 'missing' }, false],
    [{ op: 'truthy', field: 'c' }, true],
    [{ op: 'truthy', field: 'b' }, false],
    [{ op: 'truthy', field: 'g' }, false],
    [{ op: 'truthy', field: 'e' }, true],
    [{ op: 'falsy', field: 'b' }, true],
    [{ op: 'falsy', field: 'a' }, true],
    [{ op: 'falsy', field: 'c' }, false],
    [{ op: 'in', field: 'd', values: ['intern', 'extern_client'] }, true],
    [{ op: 'in', field: 'c', values: ['1'] }, true], // 1 and "1" are equal
    [{ op: 'in', field: 'e', values: [4] }, true], // a multi-select matches when any id does
    [{ op: 'in', field: 'a', values: [''] }, false], // empty never is "in"
    [{ op: 'not_in', field: 'd', values: ['intern'] }, true],
    [{ op: 'not_in', field: 'h', values: ['intern'] }, true],
    [{ op: 'not_in', field: 'e', values: [3] }, false],
    [{ op: 'all', conds: [{ op: 'truthy', field: 'c' }, { op: 'empty', field: 'a' }] }, true],
    [{ op: 'all', conds: [{ op: 'truthy', field: 'c' }, { op: 'filled', field: 'a' }] }, false],
    [{ op: 'any', conds: [{ op: 'filled', field: 'a' }, { op: 'truthy', field: 'c' }] }, true],
    [{ op: 'any', conds: [] }, false],
    [{ op: 'all', conds: [] }, true],
  ];
  it.each(cases)('%j → %s', (cond, expected) => {
    expect(holds(cond, rec)).toBe(expected);
  });

  it('asks the form whether a list has options (options_filled)', () => {
    const cond: Cond = { op: 'options_filled', field: 'bankdata_id' };
    expect(holds(cond, {}, { optionsFilled: (f) => f === 'bankdata_id' })).toBe(true);
    expect(holds(cond, {}, { optionsFilled: () => false })).toBe(false);
    expect(holds(cond, {})).toBe(false);
  });

  it('treats null, blank strings and empty lists as empty, not 0', () => {
    expect(isEmpty(null)).toBe(true);
    expect(isEmpty('  ')).toBe(true);
    expect(isEmpty([])).toBe(true);
    expect(isEmpty(0)).toBe(false);
  });
});

describe('rules (schema.Rule), one by one', () => {
  it('required: "{field} is required"', () => {
    const a = attr('name', [{ rule: 'required' }]);
    expect(check(a, { name: '' })).toBe('Name is required');
    expect(check(a, { name: '  ' })).toBe('Name is required');
    expect(check(a, { name: 'x' })).toBeNull();
  });

  it('required_if: only while the condition holds', () => {
    const a = attr('points', [{ rule: 'required_if', when: { op: 'empty', field: 'percent' } }]);
    expect(check(a, { points: null, percent: null })).toBe('Point change is required');
    expect(check(a, { points: null, percent: 2 })).toBeNull();
  });

  it('max: "{field} must contain maximum {length} characters", counting characters', () => {
    const a = attr('name', [{ rule: 'max', value: 10 }]);
    expect(check(a, { name: 'abcdefghijk' })).toBe('Name must contain maximum 10 characters');
    expect(check(a, { name: 'äöüäöüäöüä' })).toBeNull();
    expect(check(a, { name: '' })).toBeNull(); // empty passes
  });

  it('max_value: "{field} must be lower than {max}"', () => {
    const a = attr('total', [{ rule: 'max_value', value: 100 }], { type: 'decimal' });
    expect(check(a, { total: 100.5 })).toBe('Total units must be lower than 100');
    expect(check(a, { total: 100 })).toBeNull();
    expect(check(a, { total: '250' })).toBe('Total units must be lower than 100');
  });

  it('min_value: "{field} must be at least {min}"', () => {
    const a = attr('total', [{ rule: 'min_value', value: 1900 }], { type: 'int' });
    expect(check(a, { total: 1899 })).toBe('Total units must be at least 1900');
    expect(check(a, { total: 1900 })).toBeNull();
    expect(check(a, { total: 0 })).toBe('Total units must be at least 1900'); // 0 is a value
  });

  it('size: "{field} size must be less than {size}KB" for files', () => {
    const a = attr('file', [{ rule: 'size', value: 100000 }], { attribute_datatype_hint: 'file' });
    expect(check(a, { file: { name: 'a.pdf', size: 100000 * 1024 + 1 } })).toBe('File size must be less than 100000KB');
    expect(check(a, { file: { name: 'a.pdf', size: 1024 } })).toBeNull();
  });

  it('email: one or several bare addresses', () => {
    const a = attr('email', [{ rule: 'email' }]);
    expect(check(a, { email: 'nope' })).toBe('Email must be a valid email address');
    expect(check(a, { email: 'a@b.de' })).toBeNull();
    expect(check(a, { email: 'a@b.de; c@d.fr' })).toBeNull();
    expect(check(a, { email: 'Anna <a@b.de>' })).toBe('Email must be a valid email address');
    expect(validEmails('a@b.de,,c@d.fr')).toBe(true);
    expect(validEmails(',')).toBe(false);
  });

  it('regex: the per-field message, else the generic one', () => {
    const withText = attr('name', [{ rule: 'regex', pattern: '^[A-Z]{3}$', message: 'Enter the three-letter ISO 4217 code, e.g. EUR.' }]);
    expect(check(withText, { name: 'eur' })).toBe('Enter the three-letter ISO 4217 code, e.g. EUR.');
    expect(check(withText, { name: 'EUR' })).toBeNull();
    const plain = attr('name', [{ rule: 'regex', pattern: '^\\d+$' }]);
    expect(check(plain, { name: 'x' })).toBe('Name has an invalid format');
    const keyed = attr('name', [{ rule: 'regex', pattern: '^\\d+$', message: 'validation.email' }]);
    expect(check(keyed, { name: 'x' })).toBe('Name must be a valid email address');
  });

  it('date_after: "This date must be after {attribute}"; the same day passes', () => {
    const a = attr('end', [{ rule: 'date_after', field: 'begin' }], { type: 'date' });
    expect(check(a, { begin: '2024-05-02', end: '2024-05-01' })).toBe('This date must be after Begin date');
    expect(check(a, { begin: '2024-05-02', end: '2024-05-02' })).toBeNull();
    expect(check(a, { begin: null, end: '2024-05-01' })).toBeNull(); // other empty passes
    expect(check(a, { begin: '2024-05-02 10:00:00', end: '2024-05-02' })).toBeNull(); // date vs date-time by date
  });

  it('required_if_null: exactly one of the two', () => {
    const a = attr('partnercompany_id', [{ rule: 'required_if_null', field: 'company_id' }], { type: 'id' });
    expect(check(a, { partnercompany_id: null, company_id: null })).toBe('This field is required if Company is empty');
    expect(check(a, { partnercompany_id: 4, company_id: 7 })).toBe('Fill in either this field or Company, not both');
    expect(check(a, { partnercompany_id: 4, company_id: null })).toBeNull();
    expect(check(a, { partnercompany_id: null, company_id: 7 })).toBeNull();
  });

  it('lower: "The value must be lower than {attribute}"; empty passes', () => {
    const a = attr('part', [{ rule: 'lower', field: 'total' }], { type: 'decimal' });
    expect(check(a, { part: 11, total: 10 })).toBe('The value must be lower than Total units');
    expect(check(a, { part: 10, total: 10 })).toBeNull();
    expect(check(a, { part: null, total: 10 })).toBeNull();
    expect(check(a, { part: 11, total: null })).toBeNull();
    expect(check(a, { part: 9, total: 10.5 })).toBeNull();
  });

  it('not_past: a changed date before today fails; an unchanged stored one passes', () => {
    const a = attr('deadline', [{ rule: 'not_past' }], { type: 'date' });
    expect(check(a, { deadline: '2026-11-21' })).toBe('Deadline must not be in the past');
    expect(check(a, { deadline: '2026-11-22' })).toBeNull();
    const update = env({ creating: false, stored: { deadline: '2020-01-01' } });
    expect(check(a, { deadline: '2020-01-01' }, update)).toBeNull();
    expect(check(a, { deadline: '2020-01-02' }, update)).toBe('Deadline must not be in the past');
  });

  it('a rule with `when` applies only while it holds', () => {
    const a = attr('name', [{ rule: 'max', value: 2, when: { op: 'truthy', field: 'short' } }]);
    expect(check(a, { name: 'abc', short: 1 })).toBe('Name must contain maximum 2 characters');
    expect(check(a, { name: 'abc', short: 0 })).toBeNull();
  });

  it('reports only the first failing rule of a field', () => {
    const a = attr('name', [{ rule: 'required' }, { rule: 'max', value: 2 }, { rule: 'regex', pattern: '^a' }]);
    expect(check(a, { name: 'bcd' })).toBe('Name must contain maximum 2 characters');
  });
});

describe('visibility and requirement', () => {
  const parent = attr('parent_id', [{ rule: 'required' }], {
    type: 'id',
    show_when: { op: 'in', field: 'team_type', values: ['extern_client', 'friendtzieze'] },
  });

  it('skips fields whose show_when does not hold', () => {
    expect(isVisible(parent, { team_type: 'intern' }, env())).toBe(false);
    expect(check(parent, { team_type: 'intern', parent_id: null })).toBeNull();
    expect(check(parent, { team_type: 'extern_client', parent_id: null })).toBe('parent_id is required');
  });

  it('skips fields hidden on create or on update, and read-only fields', () => {
    const hidden = attr('name', [{ rule: 'required' }], { hidden_on_create: true });
    expect(check(hidden, { name: '' })).toBeNull();
    expect(check(hidden, { name: '' }, env({ creating: false }))).toBe('Name is required');
    const readOnly = attr('name', [{ rule: 'required' }], { read_only: true });
    expect(check(readOnly, { name: '' })).toBeNull();
  });

  it('derives the requirement from `required` / `required_when` when rules omit it', () => {
    const a = attr('name', [], { required: true });
    expect(check(a, { name: null })).toBe('Name is required');
    const b = attr('points', [], { required_when: { op: 'falsy', field: 'percent' } });
    expect(isRequiredNow(b, { percent: 0 }, {})).toBe(true);
    expect(isRequiredNow(b, { percent: 1 }, {})).toBe(false);
    const flag = attr('flag', [], { required: true, type: 'bool' });
    expect(check(flag, { flag: null })).toBeNull(); // booleans carry no requirement
  });

  it('validates a whole record: field → message', () => {
    const attrs = [attr('name', [{ rule: 'required' }]), attr('end', [{ rule: 'date_after', field: 'begin' }], { type: 'date' })];
    expect(validateRecord(attrs, { name: '', begin: '2024-02-01', end: '2024-01-01' }, env())).toEqual({
      name: 'Name is required',
      end: 'This date must be after Begin date',
    });
  });

  it('orders numbers numerically and dates as dates', () => {
    expect(compareValues(9, 10)).toBe(-1);
    expect(compareValues('9', 10)).toBe(-1);
    expect(compareValues('2024-01-02', '2024-01-10')).toBe(-1);
    expect(compareValues('2024-01-02 23:00:00', '2024-01-02')).toBe(0);
  });
});

describe('messages from the server catalogue', () => {
  it('fills single-brace placeholders and leaves double-brace ones to i18next', async () => {
    const { fillPlaceholders } = await import('./validation');
    expect(fillPlaceholders('{field} ist erforderlich', { field: 'Name' })).toBe('Name ist erforderlich');
    expect(fillPlaceholders('{{field}} x {other}', { field: 'A' })).toBe('{{field}} x {other}');
  });
});

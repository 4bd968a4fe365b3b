/**
 * The served table definition (GET /api/definitions/{entity}, the
 * `attributes` of read-rich and read answers): the TypeScript mirror of
 * internal/schema/serve.go and internal/schema/rules.go.
 */

/** The generic form field kind (attribute_datatype_hint). */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'html'
  | 'list'
  | 'custom_list'
  | 'list_select'
  | 'yesno'
  | 'custom-select'
  | 'checkbox'
  | 'file'
  | 'password'
  | 'color'
  | 'smiley'
  | 'date-picker'
  | 'date'
  | 'boolean'
  | 'number'
  | 'decimal';

/** How a value is stored and exchanged. */
export type DataType = 'id' | 'string' | 'int' | 'decimal' | 'bool' | 'date' | 'datetime';

/** A constant of a definition: a default, an option value, a compared value. */
export type Literal = string | number;

export type CondOp = 'empty' | 'filled' | 'truthy' | 'falsy' | 'in' | 'not_in' | 'options_filled' | 'all' | 'any';

/** A condition over the fields of the row (schema.Cond). */
export interface Cond {
  op: CondOp;
  field?: string;
  values?: Literal[];
  conds?: Cond[];
}

export type RuleKind =
  | 'required'
  | 'required_if'
  | 'max'
  | 'max_value'
  | 'min_value'
  | 'size'
  | 'email'
  | 'regex'
  | 'date_after'
  | 'required_if_null'
  | 'lower'
  | 'not_past';

/** One validation rule of a field (schema.Rule). */
export interface Rule {
  rule: RuleKind;
  field?: string;
  value?: Literal;
  pattern?: string;
  message?: string;
  when?: Cond;
}

export interface RefDefinition {
  table: string;
  key: string;
  label: string[];
  /**
   * The narrowing of the options: rows whose `target` column equals the
   * sibling `source` (or the constant `value`), or, with `via`, rows linked
   * to the sibling's value through their many-to-many relation `via`, or,
   * with `of`, rows whose `target` equals field `of` of the row the sibling
   * refers to (a payment's tax rates: those of its contract's company).
   * A `source` alone (no target, via or of) is a sibling the options action
   * reads without narrowing by a column: the record a responsible user must
   * be able to read.
   */
  where?: { target?: string; source?: string; value?: Literal; if_filled?: boolean; via?: string; of?: string }[];
}

export interface FieldOption {
  value: Literal;
  label: string;
}

export interface AttributeDefinition {
  attribute: string;
  attribute_i18n: string;
  attribute_regexp: string;
  attribute_regexp_failure_message: string;
  attribute_datatype_hint: FieldKind;
  attribute_datatype_len: number;
  /** The field's help text in the user's language, shown under its input. */
  attribute_help?: string;
  type: DataType;
  required: boolean;
  required_when?: Cond;
  show_when?: Cond;
  default?: Literal | null;
  read_only?: boolean;
  immutable?: boolean;
  hidden_on_create?: boolean;
  hidden_on_update?: boolean;
  write_only?: boolean;
  /** Read masked (first and last four characters) by callers who may not update the entity (IBANs). */
  masked?: boolean;
  multiple?: boolean;
  ref?: RefDefinition;
  options?: FieldOption[];
  unit?: { field: string; key?: string };
  derived?: { fn: string; args?: string[]; relation?: string; field?: string; on_create?: boolean };
  rules: Rule[];
  searchable?: boolean;
  sortable?: boolean;
  accept?: string[];
  generate?: boolean;
}

export type RelationKind = 'has_many' | 'many_to_many';

export interface RelationDefinition {
  name: string;
  api: string;
  label: string;
  kind: RelationKind;
  target: string;
  foreign_key?: string;
  via?: string[];
  link?: string;
  own_key?: string;
  target_key?: string;
  read_only?: boolean;
  /** The tab's own permission subject, when the permission model governs it: list shows it, update links. */
  subject?: string;
  attributes?: AttributeDefinition[];
}

export interface TableDefinition {
  table: string;
  lang: string;
  primary_key: string;
  subject: string;
  access_subject: string;
  label: string[];
  inline_edit: boolean;
  limits: { create: boolean; update: boolean; delete: boolean; list: boolean };
  attributes: AttributeDefinition[];
  relations: RelationDefinition[];
}

/** A row of a list or a read: column → value; foreign keys carry `<fk>__label`. */
export type Row = Record<string, unknown>;

/** The label column of a foreign key. */
export const labelColumn = (field: string) => `${field}__label`;

/** True for the kinds whose value is an id of another entity. */
export function isListKind(kind: FieldKind): boolean {
  return kind === 'list' || kind === 'custom_list' || kind === 'list_select';
}

/** True for kinds stored as 1/0. */
export function isBoolKind(attr: AttributeDefinition): boolean {
  return attr.type === 'bool';
}

/** The sibling fields shown inside another field (unit selectors); they get no input of their own. */
export function embeddedFields(attrs: readonly AttributeDefinition[]): Set<string> {
  const out = new Set<string>();
  for (const a of attrs) if (a.unit?.field) out.add(a.unit.field);
  for (const a of attrs) {
    if (a.attribute_datatype_hint === 'date-picker') {
      const end = rangeEndField(a.attribute);
      if (end && attrs.some((b) => b.attribute === end)) out.add(end);
    }
  }
  return out;
}

/**
 * Derived fields that repeat the label of a sibling reference (a ticket's
 * board_name beside its board_id, an address's city_zip beside its city_id):
 * the reference shows that label already, so the generic screens show the
 * reference only. The API still answers them.
 */
export function companionFields(attrs: readonly AttributeDefinition[]): Set<string> {
  const byName = new Map(attrs.map((a) => [a.attribute, a]));
  const out = new Set<string>();
  for (const a of attrs) {
    const d = a.derived;
    if (d?.fn !== 'ref' || d.args?.length !== 1 || !d.field) continue;
    const ref = byName.get(d.args[0])?.ref;
    if (ref?.label.includes(d.field)) out.add(a.attribute);
  }
  return out;
}

/** The end field paired with a date-picker start field (…start_date → …end_date, …_from → …_to). */
export function rangeEndField(start: string): string | null {
  if (start.endsWith('start_date')) return `${start.slice(0, -'start_date'.length)}end_date`;
  if (start.endsWith('begin_date')) return `${start.slice(0, -'begin_date'.length)}end_date`;
  if (start.endsWith('_from')) return `${start.slice(0, -'_from'.length)}_to`;
  return null;
}

import type { AttributeDefinition, Row, TableDefinition } from '../lib/table-definition';
import { json, type RecordedCall } from './fetch-mock';

/** A text attribute for fake definitions. */
export function textAttr(attribute: string, label: string, extra: Partial<AttributeDefinition> = {}): AttributeDefinition {
  return {
    attribute,
    attribute_i18n: label,
    attribute_regexp: '',
    attribute_regexp_failure_message: '',
    attribute_datatype_hint: 'text',
    attribute_datatype_len: 255,
    type: 'string',
    required: false,
    rules: [],
    sortable: true,
    ...extra,
  };
}

/** A minimal served definition of `table` with an id and a name. */
export function fakeDefinition(table: string, extra: Partial<TableDefinition> = {}): TableDefinition {
  return {
    table,
    lang: 'en',
    primary_key: `${table}_id`,
    subject: table,
    access_subject: table,
    label: [`${table}_name`],
    inline_edit: false,
    limits: { create: true, update: true, delete: true, list: true },
    attributes: [
      textAttr(`${table}_id`, 'Id', { type: 'id', read_only: true, hidden_on_create: true, attribute_datatype_hint: 'number' }),
      textAttr(`${table}_name`, 'Name', { required: true, rules: [{ rule: 'required' }] }),
    ],
    relations: [],
    ...extra,
  };
}

/**
 * Answers the generic table API from `tables` (definition and rows per
 * table): definitions, read-rich (with search over all values) and read.
 */
export function fakeTables(tables: Record<string, { def: TableDefinition; rows: Row[] }>) {
  return (call: RecordedCall): Response | undefined => {
    const defMatch = /^\/api\/definitions\/([^?]+)/.exec(call.url);
    if (defMatch) {
      const t = tables[decodeURIComponent(defMatch[1])];
      return t ? json(200, t.def) : json(404, { detail: 'Unknown table' });
    }
    if (!call.url.startsWith('/api/?')) return undefined;
    const body = call.body as { action: string; entity: string; id?: number; filter_all?: string; per_page?: number };
    const t = tables[body.entity];
    if (!t) return json(404, { detail: 'Unknown table' });
    if (body.action === 'read') {
      const row = t.rows.find((r) => r[t.def.primary_key] === body.id);
      return row ? json(200, { data: row, attributes: t.def.attributes, relations: t.def.relations }) : json(404, { detail: 'Not found' });
    }
    if (body.action === 'read-rich') {
      const q = body.filter_all?.toLowerCase();
      const rows = q ? t.rows.filter((r) => JSON.stringify(r).toLowerCase().includes(q)) : t.rows;
      return json(200, {
        data: { data: rows, current_page: 1, per_page: body.per_page ?? 100000, from: rows.length ? 1 : null, to: rows.length || null, has_more: false, total: rows.length },
        attributes: t.def.attributes,
      });
    }
    return undefined;
  };
}

import { useQueries } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { dataProvider, rowLabel } from '../../lib/data-provider';
import { useAbility } from '../../lib/ability-context';
import { formatDate } from '../../lib/dates';
import type { AttributeDefinition, RelationDefinition, TableDefinition } from '../../lib/table-definition';

/**
 * History entries store what changed as values ({field: [old, new]}): keys
 * of referenced rows, option codes, rich text as HTML. These helpers turn
 * them into what a user reads: the referenced row's label, the option's
 * translated name, the text without markup.
 */

/** The labels of referenced rows: table → key → label. */
export type RowLabels = Map<string, Map<number, string>>;

/** One table whose rows' labels a history needs. */
export interface LabelAsk {
  table: string;
  key: string;
  label: string[];
  ids: number[];
  /**
   * A relation's other end is read through the relation's list of the
   * owner (some tables, documents, are listed only there).
   */
  via?: { api: string; owner: Record<string, number> };
}

const HTML_TAG = /<\/?[a-z][^>]*>/i;

/** The text of a rich-text value: tags dropped, entities decoded, blocks apart by a space. */
export function plainText(html: string): string {
  if (!HTML_TAG.test(html)) return html;
  const doc = new DOMParser().parseFromString(html.replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, ' $&'), 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const asId = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * The referenced table of a field, or of a relation (its other end, read
 * through the relation's list of record `ownerId`), with its key and
 * label fields.
 */
export function refOf(def: TableDefinition | undefined, field: string, ownerId?: number): Omit<LabelAsk, 'ids'> | null {
  const attr = def?.attributes.find((a) => a.attribute === field);
  if (attr?.ref) return { table: attr.ref.table, key: attr.ref.key, label: attr.ref.label };
  const rel = def?.relations.find((r) => r.name === field);
  if (!rel || !def) return null;
  const via = ownerId ? { api: rel.api, owner: { [def.primary_key]: ownerId } } : undefined;
  return { table: rel.target, key: rel.target_key ?? `${rel.target}_id`, label: [], via };
}

/** The tables and keys whose labels the changes of these entries of record `ownerId` need. */
export function labelAsks(def: TableDefinition | undefined, entries: Array<Record<string, unknown>>, ownerId?: number): LabelAsk[] {
  const asks = new Map<string, LabelAsk>();
  for (const changes of entries) {
    for (const [field, pair] of Object.entries(changes)) {
      const ref = refOf(def, field, ownerId);
      if (!ref) continue;
      const ask = asks.get(ref.table) ?? { ...ref, ids: [] };
      for (const v of Array.isArray(pair) ? pair : [pair]) {
        const id = asId(v);
        if (id !== null && !ask.ids.includes(id)) ask.ids.push(id);
      }
      if (ask.ids.length > 0) asks.set(ref.table, ask);
    }
  }
  return [...asks.values()];
}


/**
 * The labels of the rows asked for, read through the lists the caller may
 * read (POST /api/ read-rich, filtered to the keys). A table the caller may
 * not list is not asked (the server would refuse it): its values show as
 * "#key". A relation's list is asked; the server answers it by the owner.
 */
export function useRowLabels(asks: LabelAsk[]): RowLabels {
  const ability = useAbility();
  const results = useQueries({
    queries: asks.map((ask) => ({
      enabled: ask.via !== undefined || ability.can('list', ask.table),
      queryKey: ['history-labels', ask.table, ask.key, ask.via ?? null, [...ask.ids].sort((a, b) => a - b)],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        // A relation's other end names its rows by its definition's label fields.
        const fields = ask.label.length > 0 ? ask.label : (await dataProvider.definition(ask.table, signal)).label;
        const answer = await dataProvider.rowsByKey(ask.via?.api ?? ask.table, ask.key, ask.ids, signal, ask.via?.owner);
        const m = new Map<number, string>();
        for (const row of answer.data.data) {
          const id = asId(row[ask.key]);
          const text = rowLabel(row, fields);
          if (id !== null && text) m.set(id, text);
        }
        return m;
      },
      staleTime: 60_000,
      retry: false,
    })),
  });
  const out: RowLabels = new Map();
  asks.forEach((ask, i) => out.set(ask.table, results[i]?.data ?? new Map<number, string>()));
  return out;
}

/** What a user reads for a value of field `field` of `def`. */
export function valueText(
  value: unknown,
  field: string,
  def: TableDefinition | undefined,
  labels: RowLabels,
  t: TFunction,
  lang: string,
): string {
  if (value === null || value === undefined || value === '') return '—';
  const attr: AttributeDefinition | undefined = def?.attributes.find((a) => a.attribute === field);
  const option = attr?.options?.find((o) => String(o.value) === String(value));
  if (option) return option.label;
  const ref = refOf(def, field);
  const id = asId(value);
  if (ref && id !== null) return labels.get(ref.table)?.get(id) ?? `#${id}`;
  if (attr?.type === 'bool' || typeof value === 'boolean') return value === true || value === 1 ? t('grid.yes') : t('grid.no');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return formatDate(value, lang);
  if (typeof value === 'string') return plainText(value);
  if (Array.isArray(value)) return value.map((v) => valueText(v, field, def, labels, t, lang)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The translated label of a field or relation of def, the key when def does not know it. */
export function fieldLabel(def: TableDefinition | undefined, field: string): string {
  const rel: RelationDefinition | undefined = def?.relations.find((r) => r.name === field);
  return rel?.label ?? def?.attributes.find((a) => a.attribute === field)?.attribute_i18n ?? field;
}

/** The translated name of a history entry's type ("update" → "Changed"). */
export function historyTypeText(type: string, t: TFunction): string {
  return t(`history.type.${type}`, { defaultValue: t('history.type.other') });
}

import { formatDate } from '../../lib/dates';
import { formatNumberDisplay } from '../../lib/numbers';
import { type AttributeDefinition, labelColumn, type Row } from '../../lib/table-definition';

export interface FormatContext {
  lang: string;
  yes: string;
  no: string;
}

function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The display text of one cell, from the attribute's definition. */
export function formatCell(attr: AttributeDefinition, row: Row, ctx: FormatContext): string {
  const value = row[attr.attribute];
  const label = row[labelColumn(attr.attribute)];
  if (label !== undefined && label !== null && label !== '') return Array.isArray(label) ? label.join(', ') : String(label);
  if (value === null || value === undefined || value === '') return '';
  if (attr.type === 'bool') return value === 1 || value === '1' || value === true ? ctx.yes : ctx.no;
  if (attr.options && attr.options.length > 0) {
    const list = Array.isArray(value) ? value : [value];
    return list.map((v) => attr.options?.find((o) => String(o.value) === String(v))?.label ?? String(v)).join(', ');
  }
  if (Array.isArray(value)) return value.join(', ');
  switch (attr.type) {
    case 'date':
    case 'datetime':
      return formatDate(String(value), ctx.lang);
    case 'decimal':
      return formatNumberDisplay(value, ctx.lang, true);
    case 'int':
      return String(value);
  }
  if (attr.attribute_datatype_hint === 'password') return '••••••';
  if (attr.attribute_datatype_hint === 'html') return stripHtml(String(value));
  return String(value);
}

/** Text cut to `max` characters with an ellipsis (the ticket list cuts at 20). */
export function truncateText(text: string, max?: number): string {
  if (!max || [...text].length <= max) return text;
  return `${[...text].slice(0, max).join('')}…`;
}

/** Numbers align right. */
export function isNumeric(attr: AttributeDefinition): boolean {
  return (attr.type === 'int' || attr.type === 'decimal') && !attr.ref && !attr.options;
}

/** Average width of a header character (14 px semibold, wide fallback fonts included). */
const HEADER_CHAR_PX = 10;
/** The cell's padding (2 × 10 px) and, for sortable columns, the sort mark and its gap. */
const HEADER_PADDING_PX = 22;
const SORT_MARK_PX = 18;
/** Headers longer than this much show cut, in full on hover (the width goes to the data). */
const HEADER_MAX_PX = 320;

/**
 * The width a column needs for its header in full ("Kündigungsdatum" with its
 * sort mark), whatever the language: the grid never makes a column narrower.
 */
export function headerWidth(header: string, sortable: boolean): number {
  const text = Math.ceil([...header].length * HEADER_CHAR_PX);
  return Math.min(HEADER_MAX_PX, text + HEADER_PADDING_PX + (sortable ? SORT_MARK_PX : 0));
}

/** A sensible column width in pixels for an attribute's values (see headerWidth for its title). */
export function columnWidth(attr: AttributeDefinition): number {
  if (attr.type === 'id' && !attr.ref) return 110;
  if (attr.type === 'bool') return 90;
  if (attr.type === 'date') return 120;
  if (attr.type === 'datetime') return 150;
  if (attr.type === 'int' || attr.type === 'decimal') return 120;
  if (attr.attribute_datatype_hint === 'color' || attr.attribute_datatype_hint === 'smiley') return 100;
  if (attr.attribute_datatype_len > 0 && attr.attribute_datatype_len <= 20) return 130;
  if (attr.ref) return 220;
  return attr.attribute_datatype_len > 0 && attr.attribute_datatype_len <= 60 ? 180 : 260;
}

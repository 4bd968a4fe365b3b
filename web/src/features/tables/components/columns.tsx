import { Checkbox, TextInput } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellEditorProps, DataTableColumn } from '../../../components/data-table/data-table';
import { columnWidth, type FormatContext, formatCell, isNumeric } from '../../../components/data-table/format';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { DECIMAL_PLACES } from '../../../lib/numbers';
import { type AttributeDefinition, companionFields, type Row } from '../../../lib/table-definition';
import { UnparsedInput } from '../../../lib/validation';
import classes from './columns.module.css';

/** Attributes that make sense as list columns: one per field, so no copy of a reference's label. */
export function listableAttributes(attrs: readonly AttributeDefinition[]): AttributeDefinition[] {
  const companions = companionFields(attrs);
  return attrs.filter((a) => !a.write_only && a.attribute_datatype_hint !== 'password' && !companions.has(a.attribute));
}

/** The entity's key fields: its primary key (shown as a narrow "#") and its label fields (shown first). */
export interface KeyFields {
  primaryKey?: string;
  label?: readonly string[];
}

/**
 * The default visible columns, at most 12, without long texts: the entity's
 * label fields first (what a phone shows without scrolling), then the others.
 * The numeric id is left out when label fields name the row (the column
 * chooser still offers it, as "#").
 */
export function defaultColumns(attrs: readonly AttributeDefinition[], keys: KeyFields = {}): string[] {
  const shown = listableAttributes(attrs)
    .filter((a) => a.attribute_datatype_hint !== 'html' && a.attribute_datatype_hint !== 'textarea')
    .map((a) => a.attribute);
  const labels = (keys.label ?? []).filter((l) => shown.includes(l) && l !== keys.primaryKey);
  const rest = shown.filter((c) => !labels.includes(c) && !(labels.length > 0 && c === keys.primaryKey));
  return [...labels, ...rest].slice(0, 12);
}

/** The visible columns in order: the chosen ones that still exist, else the defaults. */
export function visibleColumns(attrs: readonly AttributeDefinition[], chosen: string[] | null, keys: KeyFields = {}): string[] {
  const known = new Set(listableAttributes(attrs).map((a) => a.attribute));
  const list = (chosen ?? []).filter((c) => known.has(c));
  return list.length > 0 ? list : defaultColumns(attrs, keys);
}

/**
 * The columns a list request asks for: each visible field, plus the label of
 * references (of a multi-select: its labels, in the order of its ids).
 */
export function requestColumns(attrs: readonly AttributeDefinition[], visible: string[]): string[] {
  const byName = new Map(attrs.map((a) => [a.attribute, a]));
  return visible.flatMap((c) => {
    const a = byName.get(c);
    if (!a || a.write_only) return [];
    return a.ref ? [c, `${c}__label`] : [c];
  });
}

/** Columns an inline edit may change: plain text, numbers and flags that are writable. */
export function isInlineEditable(attr: AttributeDefinition): boolean {
  if (attr.read_only || attr.derived || attr.immutable || attr.ref || attr.options) return false;
  const kind = attr.attribute_datatype_hint;
  return kind === 'text' || kind === 'textarea' || kind === 'number' || kind === 'decimal' || attr.type === 'bool';
}

function editorKeys(event: KeyboardEvent, commit: () => void, tab: (back: boolean) => void, cancel: () => void) {
  if (event.key === 'Enter') {
    event.preventDefault();
    commit();
  } else if (event.key === 'Tab') {
    event.preventDefault();
    tab(event.shiftKey);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    cancel();
  }
  event.stopPropagation();
}

function TextEditor({ value, commit, cancel, label }: CellEditorProps & { label: string }) {
  const [text, setText] = useState(value === null || value === undefined ? '' : String(value));
  return (
    <TextInput
      size="xs"
      w="100%"
      autoFocus
      aria-label={label}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => editorKeys(e, () => commit(text), (back) => commit(text, back ? 'prev' : 'next'), cancel)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

/** A number typed as the language writes it; a text that is no number stays in the cell with its message. */
function NumberEditor({ value, commit, cancel, label, decimal }: CellEditorProps & { label: string; decimal: boolean }) {
  const { t } = useTranslation();
  const [num, setNum] = useState<unknown>(value === undefined ? null : value);
  const [error, setError] = useState<string | null>(null);
  const out = (then: (v: number | null) => void) => {
    if (num instanceof UnparsedInput) return setError(t(num.messageKey, num.vars));
    then(num === null || num === '' ? null : Number(num));
  };
  return (
    <NumberTextInput
      size="xs"
      w="100%"
      autoFocus
      aria-label={label}
      value={num}
      decimals={decimal ? DECIMAL_PLACES : 0}
      error={error}
      onChange={(v) => {
        setNum(v);
        setError(null);
      }}
      onKeyDown={(e) => editorKeys(e, () => out((v) => commit(v)), (back) => out((v) => commit(v, back ? 'prev' : 'next')), cancel)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

function FlagEditor({ value, commit, cancel, label }: CellEditorProps & { label: string }) {
  const [on, setOn] = useState(value === 1 || value === '1' || value === true);
  return (
    <Checkbox
      autoFocus
      aria-label={label}
      checked={on}
      onChange={(e) => setOn(e.currentTarget.checked)}
      onKeyDown={(e) => editorKeys(e, () => commit(on ? 1 : 0), (back) => commit(on ? 1 : 0, back ? 'prev' : 'next'), cancel)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

/** Grid columns from the definition: labels, formats, sorting and (for lookups) editors. */
export function buildColumns(
  attrs: readonly AttributeDefinition[],
  visible: string[],
  ctx: FormatContext,
  options: { inlineEdit?: boolean; primaryKey?: string; editHint?: string } = {},
): DataTableColumn[] {
  const byName = new Map(attrs.map((a) => [a.attribute, a]));
  return visible.flatMap((name) => {
    const attr = byName.get(name);
    if (!attr) return [];
    const editable = Boolean(options.inlineEdit) && isInlineEditable(attr);
    // The numeric id is a narrow "#" column, not one titled with the entity's name.
    const isKey = attr.attribute === options.primaryKey;
    const column: DataTableColumn = {
      id: attr.attribute,
      header: isKey ? '#' : attr.attribute_i18n,
      text: (row: Row) => formatCell(attr, row, ctx),
      width: isKey ? 72 : columnWidth(attr),
      // Names and references take the spare room; a choice of a fixed list ("Active") needs none.
      grow: !isKey && !attr.options?.length && !isNumeric(attr) && columnWidth(attr) >= 180,
      // The server sorts stored fields only (served `sortable`); computed values and multi-selects are not.
      sortable: attr.sortable === true,
      align: isNumeric(attr) ? 'right' : 'left',
      editable,
    };
    if (attr.attribute_datatype_hint === 'color') {
      column.render = (row, text) => (
        <>
          <span
            style={{
              display: 'inline-block',
              width: 14,
              height: 14,
              borderRadius: 3,
              marginRight: 6,
              background: String(row[attr.attribute] ?? 'transparent'),
              border: '1px solid var(--mantine-color-default-border)',
            }}
            aria-hidden
          />
          {text}
        </>
      );
    }
    if (editable) {
      // Nothing else tells that a double click (or Enter) edits the cell.
      const shown = column.render ?? ((_row: Row, text: string): ReactNode => text);
      column.render = (row, text) => (
        <span className={classes.editable} title={options.editHint}>
          <span>{shown(row, text)}</span>
          <IconPencil size={12} className={classes.pencil} aria-hidden data-testid="edit-hint" />
        </span>
      );
      const label = attr.attribute_i18n;
      column.editor =
        attr.type === 'bool'
          ? (p) => <FlagEditor {...p} label={label} />
          : attr.type === 'int' || attr.type === 'decimal'
            ? (p) => <NumberEditor {...p} label={label} decimal={attr.type === 'decimal'} />
            : (p) => <TextEditor {...p} label={label} />;
    }
    return [column];
  });
}

/** The sort column the server takes for a field: foreign keys sort by their label. */
export function orderColumn(attrs: readonly AttributeDefinition[], field: string): string {
  const attr = attrs.find((a) => a.attribute === field);
  return attr?.ref ? `${field}__label` : field;
}

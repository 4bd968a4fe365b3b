import { Loader } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Row } from '../../lib/table-definition';
import classes from './data-table.module.css';
import { headerWidth } from './format';

/** One column of the grid. */
export interface DataTableColumn {
  id: string;
  header: string;
  /** The cell's display text (also the hover text of cut cells). */
  text: (row: Row) => string;
  /** A richer cell than the text (swatches, badges). */
  render?: (row: Row, text: string) => ReactNode;
  width: number;
  /**
   * Takes a share of the room the grid has beyond its columns' widths (by
   * default the text columns do: names, references; not numbers, dates or
   * flags), so a wide screen shows long names in full instead of a gap.
   */
  grow?: boolean;
  sortable?: boolean;
  align?: 'left' | 'right';
  /** Cells of this column can be edited in place (see DataTableProps.onCellCommit). */
  editable?: boolean;
  /** Renders the in-place editor; call commit(value) or cancel(). */
  editor?: (props: CellEditorProps) => ReactNode;
}

export interface CellEditorProps {
  row: Row;
  value: unknown;
  /** Saves; `move` tells where the focus goes next. */
  commit: (value: unknown, move?: 'next' | 'prev' | 'stay') => void;
  cancel: () => void;
}

export interface DataTableSort {
  field: string;
  dir: 'ASC' | 'DESC';
}

export interface DataTableProps {
  rows: Row[];
  columns: DataTableColumn[];
  rowKey: (row: Row) => string;
  /** Accessible name of the grid. */
  label: string;
  sort?: DataTableSort | null;
  onSortChange?: (sort: DataTableSort | null) => void;
  /** Opens a record (click, Enter). */
  onOpen?: (row: Row) => void;
  /** Row selection with check boxes. */
  selection?: ReadonlySet<string>;
  onSelectionChange?: (selection: Set<string>) => void;
  /** Commits an edited cell (inline edit); reject to keep the editor open. */
  onCellCommit?: (row: Row, column: string, value: unknown) => Promise<void>;
  /** Height of the scrolling area (CSS). */
  height?: number | string;
  rowHeight?: number;
  /** Cut cell texts at this many characters (the full text shows on hover). */
  truncateAt?: number;
  /** A loader over the body while a new page loads. */
  busy?: boolean;
  /** Sort labels for screen readers. */
  sortLabels?: { asc: string; desc: string; none: string };
  selectAllLabel?: string;
  selectRowLabel?: string;
}

const SELECT_WIDTH = 44;
/** Columns this wide or wider (text, references) grow by default; narrower ones hold codes, dates, flags. */
const GROW_FROM = 180;

/** A cell's size: its width, plus a share of the spare room in proportion to it when the column grows. */
function cellStyle(col: DataTableColumn) {
  return { width: col.width, flexGrow: col.grow ? col.width : 0 };
}

/**
 * The generic grid: TanStack Table for the column model, TanStack Virtual for
 * the body, so 100,000 rows render as a window of some 40 rows. Sorting is the
 * server's (manual); arrow keys move the row focus, Enter opens the record;
 * with inline editing, left/right move between cells, Enter edits and saves,
 * Tab saves and moves on, Escape cancels.
 */
export function DataTable({
  rows,
  columns: given,
  rowKey,
  label,
  sort,
  onSortChange,
  onOpen,
  selection,
  onSelectionChange,
  onCellCommit,
  height = 'calc(100dvh - 260px)',
  rowHeight = 36,
  truncateAt,
  busy,
  sortLabels = { asc: 'ascending', desc: 'descending', none: 'none' },
  selectAllLabel = 'Select all',
  selectRowLabel = 'Select row',
}: DataTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState(0);
  const [activeCol, setActiveCol] = useState(0);
  const [editing, setEditing] = useState<{ row: number; col: string } | null>(null);
  const selectable = Boolean(selection && onSelectionChange);
  // A column is at least as wide as its header (German and French titles run
  // longer than the English ones the widths were chosen for).
  const sortable = Boolean(onSortChange);
  const columns = useMemo(
    () =>
      given.map((c) => ({
        ...c,
        width: Math.max(c.width, headerWidth(c.header, Boolean(c.sortable) && sortable)),
        grow: c.grow ?? (c.align !== 'right' && c.width >= GROW_FROM),
      })),
    [given, sortable],
  );
  const inlineEdit = Boolean(onCellCommit) && columns.some((c) => c.editable);

  const columnDefs = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        accessorFn: (row: Row) => c.text(row),
        size: c.width,
        enableSorting: Boolean(c.sortable),
      })),
    [columns],
  );

  // TanStack Table holds the column model (headers, order); the body reads
  // `rows` directly and never asks for the row model, which would build an
  // object per row and walk all of them for the selection state.
  const table = useReactTable({
    data: rows,
    columns: columnDefs,
    getRowId: rowKey,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    enableRowSelection: false,
  });

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    // Paint the first window before the scroller is measured.
    initialRect: { width: 1200, height: typeof height === 'number' ? height : 600 },
  });

  useEffect(() => {
    if (focused > rows.length - 1) setFocused(Math.max(0, rows.length - 1));
  }, [rows.length, focused]);

  const totalWidth = columns.reduce((sum, c) => sum + c.width, 0) + (selectable ? SELECT_WIDTH : 0);
  const columnIndex = useMemo(() => new Map(columns.map((c, i) => [c.id, i])), [columns]);

  const moveFocus = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(rows.length - 1, index));
      setFocused(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [rows.length, virtualizer],
  );

  const editableCols = columns.filter((c) => c.editable);

  const startEdit = (rowIndex: number, colIndex: number) => {
    const col = columns[colIndex];
    if (col?.editable) setEditing({ row: rowIndex, col: col.id });
  };

  /** After a save with Tab: the next editable cell, wrapping to the next row. */
  const moveAfterCommit = (rowIndex: number, colId: string, move: 'next' | 'prev' | 'stay') => {
    if (move === 'stay') return;
    const pos = editableCols.findIndex((c) => c.id === colId);
    let r = rowIndex;
    let p = pos + (move === 'next' ? 1 : -1);
    if (p >= editableCols.length) {
      p = 0;
      r += 1;
    } else if (p < 0) {
      p = editableCols.length - 1;
      r -= 1;
    }
    if (r < 0 || r >= rows.length) return;
    const ci = columnIndex.get(editableCols[p].id) ?? 0;
    setFocused(r);
    setActiveCol(ci);
    virtualizer.scrollToIndex(r, { align: 'auto' });
    setEditing({ row: r, col: editableCols[p].id });
  };

  // Row callbacks through a ref: rows are memoized and must not re-render
  // because a handler was re-created.
  const latest = useRef({ setFocused, setActiveCol, startEdit, moveAfterCommit, onOpen, onCellCommit, toggle: (_k: string) => {}, stopEdit: () => {} });
  latest.current = {
    setFocused,
    setActiveCol,
    startEdit,
    moveAfterCommit,
    onOpen,
    onCellCommit,
    toggle: (key: string) => {
      if (!selection || !onSelectionChange) return;
      const next = new Set(selection);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      onSelectionChange(next);
    },
    stopEdit: () => {
      setEditing(null);
      scrollRef.current?.focus();
    },
  };
  const actions = useMemo<RowActions>(
    () => ({
      focus: (i) => latest.current.setFocused(i),
      activate: (c) => latest.current.setActiveCol(c),
      edit: (i, c) => latest.current.startEdit(i, c),
      open: (row) => latest.current.onOpen?.(row),
      toggle: (key) => latest.current.toggle(key),
      commit: (row, index, col, value, move) => {
        latest.current.onCellCommit?.(row, col, value).then(
          () => {
            latest.current.stopEdit();
            latest.current.moveAfterCommit(index, col, move);
          },
          () => undefined,
        );
      },
      cancel: () => latest.current.stopEdit(),
    }),
    [],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing) return; // the editor handles its keys
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(focused + 1);
        break;
      case 'ArrowUp':
        moveFocus(focused - 1);
        break;
      case 'PageDown':
        moveFocus(focused + page);
        break;
      case 'PageUp':
        moveFocus(focused - page);
        break;
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rows.length - 1);
        break;
      case 'ArrowRight':
        if (!inlineEdit) return;
        setActiveCol((c) => Math.min(columns.length - 1, c + 1));
        break;
      case 'ArrowLeft':
        if (!inlineEdit) return;
        setActiveCol((c) => Math.max(0, c - 1));
        break;
      case 'Enter':
        if (rows[focused] === undefined) return;
        if (inlineEdit && columns[activeCol]?.editable) startEdit(focused, activeCol);
        else onOpen?.(rows[focused]);
        break;
      case ' ':
        if (!selectable || !rows[focused]) return;
        latest.current.toggle(rowKey(rows[focused]));
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const headerGroups = table.getHeaderGroups();
  const selectedCount = selection?.size ?? 0;
  const allSelected = rows.length > 0 && selectedCount >= rows.length;
  const someSelected = selectedCount > 0;
  const toggleAll = () => onSelectionChange?.(allSelected ? new Set() : new Set(rows.map(rowKey)));

  return (
    <div
      ref={scrollRef}
      className={classes.scroller}
      style={{ height }}
      tabIndex={0}
      onKeyDown={onKeyDown}
      role="region"
      aria-label={label}
      data-testid="data-table-scroller"
    >
      <table className={classes.table} role="grid" aria-label={label} aria-rowcount={rows.length + 1} aria-busy={busy || undefined}>
        <thead className={classes.thead}>
          {headerGroups.map((group) => (
            <tr key={group.id} className={classes.tr} style={{ width: '100%', minWidth: totalWidth }} aria-rowindex={1}>
              {selectable && (
                <th className={classes.th} style={{ width: SELECT_WIDTH }}>
                  <input
                    type="checkbox"
                    className={classes.rowCheck}
                    aria-label={selectAllLabel}
                    checked={allSelected}
                    ref={(el) => {
                      if (el) el.indeterminate = someSelected && !allSelected;
                    }}
                    onChange={toggleAll}
                  />
                </th>
              )}
              {group.headers.map((header) => {
                const col = columns[columnIndex.get(header.column.id) ?? 0];
                const dir = sort?.field === col.id ? sort.dir : null;
                const ariaSort = dir === 'ASC' ? 'ascending' : dir === 'DESC' ? 'descending' : 'none';
                return (
                  <th
                    key={header.id}
                    className={`${classes.th} ${col.align === 'right' ? classes.right : ''}`}
                    style={cellStyle(col)}
                    aria-sort={col.sortable ? ariaSort : undefined}
                    scope="col"
                  >
                    {col.sortable && onSortChange ? (
                      <button
                        type="button"
                        className={classes.sortButton}
                        title={`${col.header} (${dir === 'ASC' ? sortLabels.asc : dir === 'DESC' ? sortLabels.desc : sortLabels.none})`}
                        onClick={() =>
                          onSortChange(
                            dir === null ? { field: col.id, dir: 'ASC' } : dir === 'ASC' ? { field: col.id, dir: 'DESC' } : null,
                          )
                        }
                      >
                        <span className={classes.cellText}>{flexRender(header.column.columnDef.header, header.getContext())}</span>
                        {dir === 'ASC' ? (
                          <IconArrowUp size={14} aria-hidden />
                        ) : dir === 'DESC' ? (
                          <IconArrowDown size={14} aria-hidden />
                        ) : (
                          <IconArrowsSort size={14} aria-hidden opacity={0.4} />
                        )}
                      </button>
                    ) : (
                      <span className={classes.cellText}>{col.header}</span>
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className={classes.tbody} style={{ height: virtualizer.getTotalSize(), width: '100%', minWidth: totalWidth }}>
          {virtualizer.getVirtualItems().map((item) => {
            const data = rows[item.index];
            const key = rowKey(data);
            const isFocused = item.index === focused;
            return (
              <BodyRow
                key={key}
                rowId={key}
                index={item.index}
                start={item.start}
                data={data}
                columns={columns}
                rowHeight={rowHeight}
                width={totalWidth}
                selectable={selectable}
                selected={selection?.has(key) ?? false}
                focused={isFocused}
                activeCol={inlineEdit && isFocused ? activeCol : -1}
                editingCol={editing?.row === item.index ? editing.col : null}
                inlineEdit={inlineEdit}
                truncateAt={truncateAt}
                selectRowLabel={selectRowLabel}
                actions={actions}
              />
            );
          })}
        </tbody>
      </table>
      {busy && (
        <div style={{ position: 'absolute', top: 44, right: 12 }}>
          <Loader size="sm" />
        </div>
      )}
    </div>
  );
}

interface RowActions {
  focus: (index: number) => void;
  activate: (col: number) => void;
  edit: (index: number, col: number) => void;
  open: (row: Row) => void;
  toggle: (key: string) => void;
  commit: (row: Row, index: number, col: string, value: unknown, move: 'next' | 'prev' | 'stay') => void;
  cancel: () => void;
}

interface BodyRowProps {
  rowId: string;
  index: number;
  start: number;
  data: Row;
  columns: DataTableColumn[];
  rowHeight: number;
  width: number;
  selectable: boolean;
  selected: boolean;
  focused: boolean;
  activeCol: number;
  editingCol: string | null;
  inlineEdit: boolean;
  truncateAt?: number;
  selectRowLabel: string;
  actions: RowActions;
}

/** One body row; memoized so that scrolling only mounts the rows coming into view. */
const BodyRow = memo(function BodyRow({
  rowId,
  index,
  start,
  data,
  columns,
  rowHeight,
  width,
  selectable,
  selected,
  focused,
  activeCol,
  editingCol,
  inlineEdit,
  truncateAt,
  selectRowLabel,
  actions,
}: BodyRowProps) {
  return (
    <tr
      className={`${classes.tr} ${classes.bodyRow}`}
      style={{ transform: `translateY(${start}px)`, height: rowHeight, width: '100%', minWidth: width }}
      aria-rowindex={index + 2}
      aria-selected={selectable ? selected : undefined}
      data-focused={focused}
      data-selected={selected}
      data-index={index}
      onClick={() => {
        actions.focus(index);
        if (!inlineEdit) actions.open(data);
      }}
      onDoubleClick={() => {
        if (inlineEdit) actions.open(data);
      }}
    >
      {selectable && (
        <td className={classes.td} style={{ width: SELECT_WIDTH }} onClick={(e) => e.stopPropagation()}>
          {/* A native box: a Mantine Checkbox per row costs too much while scrolling fast. */}
          <input type="checkbox" className={classes.rowCheck} aria-label={selectRowLabel} checked={selected} onChange={() => actions.toggle(rowId)} />
        </td>
      )}
      {columns.map((col, ci) => {
        const text = col.text(data);
        const shown = truncateAt ? cutText(text, truncateAt) : text;
        const isEditing = editingCol === col.id;
        return (
          <td
            key={col.id}
            className={`${classes.td} ${col.align === 'right' ? classes.right : ''}`}
            style={cellStyle(col)}
            data-active={activeCol === ci}
            data-column={col.id}
            onClick={() => {
              if (inlineEdit) actions.activate(ci);
            }}
            onDoubleClick={(e) => {
              if (inlineEdit && col.editable) {
                e.stopPropagation();
                actions.focus(index);
                actions.activate(ci);
                actions.edit(index, ci);
              }
            }}
          >
            {isEditing && col.editor ? (
              col.editor({
                row: data,
                value: data[col.id],
                cancel: actions.cancel,
                commit: (value, move = 'stay') => actions.commit(data, index, col.id, value, move),
              })
            ) : (
              <span className={classes.cellText} title={text.length > 12 || shown !== text ? text : undefined}>
                {col.render ? col.render(data, shown) : shown}
              </span>
            )}
          </td>
        );
      })}
    </tr>
  );
});

function cutText(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

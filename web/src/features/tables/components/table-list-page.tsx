import '@mantine/dates/styles.css';
import {
  Alert,
  Button,
  Group,
  Indicator,
  Loader,
  Menu,
  Pagination,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  IconAdjustments,
  IconDownload,
  IconFileImport,
  IconFilter,
  IconLayoutKanban,
  IconPlus,
  IconRefresh,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { FilterPanel } from '../../../components/data-table/filter-panel';
import { ListHeading } from '../../../components/data-table/list-heading';
import { useAbility } from '../../../lib/ability-context';
import type { FilterCondition, ListParams } from '../../../lib/data-provider';
import { type Continuation, nextContinuation, withContinuation } from '../../../lib/keyset-paging';
import type { ListState } from '../../../lib/list-state';
import { pageSizesFor } from '../../../lib/list-state';
import { notifySuccess } from '../../../lib/notify';
import type { Row, TableDefinition } from '../../../lib/table-definition';
import { useBulkDelete } from '../api/bulk-delete';
import { useExportRows } from '../api/export-rows';
import { useDefinition } from '../api/get-definition';
import { useListRows } from '../api/list-rows';
import { useUpdateField } from '../api/update-field';
import { useFillHeight } from '../hooks/use-fill-height';
import { useListState } from '../hooks/use-list-state';
import { ColumnChooser } from './column-chooser';
import { buildColumns, listableAttributes, orderColumn, requestColumns, visibleColumns } from './columns';
import { ConfirmDialog } from './confirm-dialog';
import { SavedViewsMenu } from './saved-views-menu';
import { DefinitionError, tableLabel } from './table-common';
import { serverDetail, toastError } from './table-errors';

/** Tables without a create button on the list (created elsewhere). */
const NO_LIST_CREATE = new Set(['ticket']);
/** Rows fetched first when a page is bigger than this. */
const HEAD_ROWS = 200;
/** Cell text cut per table (ticket: 20 characters). */
const TRUNCATE_AT: Record<string, number> = { ticket: 20 };

/**
 * What a list screen of its own (the deadline list) changes in the generic
 * list: its title, its default columns, columns computed in the browser and
 * quick controls that work through the list state (so they are kept in the
 * URL and in saved views).
 */
export interface ListVariant {
  title?: string;
  defaultColumns?: string[];
  /** The order while the user has chosen none. */
  defaultSort?: ListState['sort'];
  /** Fields asked for besides the visible ones (what computed columns need). */
  extraFields?: string[];
  /** Columns shown before the definition's. */
  leadColumns?: DataTableColumn[];
  /** Widths (px) that replace the kind-based defaults of the named columns. */
  columnWidths?: Record<string, number>;
  /** Cell renderings that replace the default of the named columns (given the row and the cell's text). */
  columnRender?: Record<string, NonNullable<DataTableColumn['render']>>;
  /** Controls beside the search field. */
  toolbar?: (state: ListState, update: (patch: Partial<ListState>) => void) => ReactNode;
  /** Where a row leads (default: its own record page). */
  rowPath?: (row: Row) => string;
  /** Conditions every page of the list meets besides the user's filters (not shown among them). */
  baseFilter?: FilterCondition[];
}

/** /app/table/{table}: the generic index table. */
export default function TableListPage({ table: fixed, variant }: { table?: string; variant?: ListVariant } = {}) {
  const params = useParams();
  const table = fixed ?? params.table ?? '';
  const definition = useDefinition(table);
  if (definition.isPending) return <Loader m="xl" aria-label="loading" />;
  if (definition.isError) return <DefinitionError table={table} error={definition.error} />;
  return <TableList key={table} table={table} def={definition.data} variant={variant} />;
}

function TableList({ table, def, variant }: { table: string; def: TableDefinition; variant?: ListVariant }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const [state, update] = useListState(table);
  const [searchText, setSearchText] = useState(state.search);
  const [filtersOpen, setFiltersOpen] = useState(state.filters.length > 0);
  const [filterKey, setFilterKey] = useState(0);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [confirmBulk, setConfirmBulk] = useState(false);
  const gridRef = useRef<HTMLDivElement>(null);
  const height = useFillHeight(gridRef, 64);

  const subject = def.access_subject || def.subject || table;
  const can = {
    create: def.limits.create && ability.can('create', subject) && !NO_LIST_CREATE.has(table),
    remove: def.limits.delete && ability.can('remove', subject),
    update: def.limits.update && ability.can('update', subject),
  };
  const attrs = def.attributes;
  const chosen = state.columns?.join(',') ?? '';
  const keys = useMemo(() => ({ primaryKey: def.primary_key, label: def.label }), [def.primary_key, def.label]);
  const visible = useMemo(
    () => visibleColumns(attrs, state.columns ?? variant?.defaultColumns ?? null, keys),
    [attrs, chosen, keys, variant?.defaultColumns],
  );
  const inlineEdit = def.inline_edit && can.update;
  const sort = state.sort ?? variant?.defaultSort ?? null;

  // Keyset paging: one page forward continues after the page shown (the
  // token of its answer); other moves use the page number.
  const continuation = useRef<Continuation | null>(null);
  const pageParams: ListParams = useMemo(
    () => ({
      filter: variant?.baseFilter ? [...variant.baseFilter, ...state.filters] : state.filters,
      search: state.search,
      orderBy: sort ? orderColumn(attrs, sort.field) : undefined,
      orderDir: sort?.dir,
      page: state.page,
      perPage: state.perPage,
      count: state.perPage <= HEAD_ROWS,
      columns: [...new Set([...requestColumns(attrs, visible), ...(variant?.extraFields ?? [])])],
    }),
    [state, sort, attrs, visible, variant?.extraFields, variant?.baseFilter],
  );
  const params = useMemo(() => withContinuation(table, pageParams, continuation.current), [table, pageParams]);
  // Big pages come in two steps: the first rows (and the count) at once,
  // then the whole page, so the first rows show within a moment.
  const big = state.perPage > HEAD_ROWS;
  const headParams: ListParams = useMemo(
    () => ({ ...params, page: undefined, from: (state.page - 1) * state.perPage + 1, perPage: HEAD_ROWS, count: true }),
    [params, state.page, state.perPage],
  );
  const head = useListRows(table, headParams, big);
  const list = useListRows(table, params);
  const fresh = (q: typeof list) => Boolean(q.data) && !q.isPlaceholderData;
  const answer = fresh(list) ? list.data : big && fresh(head) ? head.data : (list.data ?? head.data);
  const rows = answer?.data.data ?? [];
  const counted = big ? (head.data?.data.total !== undefined ? head.data : list.data) : list.data;
  const total = counted?.data.total;
  const totalAsOf = counted?.data.total_as_of;
  const loadingRest = big && !fresh(list);
  useEffect(() => {
    if (fresh(list)) continuation.current = nextContinuation(table, pageParams, list.data);
  }, [table, pageParams, list.data, list.isPlaceholderData]);

  useEffect(() => {
    if (list.isError) toastError(list.error);
  }, [list.isError, list.error]);

  useEffect(() => setSearchText(state.search), [state.search]);
  const commitSearch = useDebouncedCallback((text: string) => {
    const trimmed = text.trim();
    if (trimmed.length >= 2 || trimmed.length === 0) update({ search: trimmed });
  }, 500);

  const ctx = useMemo(() => ({ lang: i18n.language, yes: t('grid.yes'), no: t('grid.no') }), [i18n.language, t]);
  const columns = useMemo(
    () => [
      ...(variant?.leadColumns ?? []),
      ...buildColumns(attrs, visible, ctx, { inlineEdit, primaryKey: def.primary_key, editHint: t('grid.edit_hint') }).map((c) => ({
        ...c,
        ...(variant?.columnWidths?.[c.id] ? { width: variant.columnWidths[c.id] } : {}),
        ...(variant?.columnRender?.[c.id] ? { render: variant.columnRender[c.id] } : {}),
      })),
    ],
    [attrs, visible, ctx, inlineEdit, def.primary_key, t, variant?.leadColumns, variant?.columnWidths, variant?.columnRender],
  );

  const pk = def.primary_key;
  const rowKey = (row: Row) => String(row[pk]);
  const open = (row: Row) => navigate(variant?.rowPath?.(row) ?? `/app/table/${table}/view/${String(row[pk])}`);
  const label = variant?.title ?? tableLabel(t, table);
  const filtered = state.filters.length > 0 || state.search !== '';

  const bulkDelete = useBulkDelete();
  const exporter = useExportRows();
  const updateField = useUpdateField();

  const resetFilters = () => {
    setSearchText('');
    setFilterKey((k) => k + 1);
    update({ filters: [], search: '' });
  };

  const pages = total !== undefined ? Math.max(1, Math.ceil(total / state.perPage)) : state.page + (answer?.data.has_more ? 1 : 0);
  const from = answer?.data.from ?? 0;
  const to = loadingRest ? Math.min(total ?? 0, (state.page - 1) * state.perPage + state.perPage) : (answer?.data.to ?? 0);

  const commitCell = async (row: Row, field: string, value: unknown) => {
    try {
      await updateField.mutateAsync({ table, id: String(row[pk]), field, value, rowVersion: Number(row.row_version ?? 0) || null });
      notifySuccess(t('grid.value_updated'));
    } catch (error) {
      toastError(error);
      throw error;
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <ListHeading title={label} total={total} totalAsOf={totalAsOf} />
        <Group gap="xs">
          <SavedViewsMenu table={table} state={state} onApply={(patch) => update(patch)} />
          <ColumnChooser
            attributes={listableAttributes(attrs)}
            keys={keys}
            visible={visible}
            onChange={(cols) => update({ columns: cols })}
          />
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporter.isPending}>
                {t('grid.export')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(['csv', 'xlsx'] as const).map((format) => (
                <Menu.Item
                  key={format}
                  onClick={() =>
                    exporter.mutate(
                      { table, params, format },
                      {
                        onSuccess: (name) => notifySuccess(t('grid.export_done', { name })),
                        onError: toastError,
                      },
                    )
                  }
                >
                  {format === 'csv' ? t('grid.export_csv') : t('grid.export_xlsx')}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {table === 'board' && (
            <Button
              variant="default"
              leftSection={<IconLayoutKanban size={16} />}
              disabled={selection.size !== 1}
              onClick={() => navigate(`/app/table/board/${[...selection][0]}/kanban`)}
            >
              {t('grid.kanban')}
            </Button>
          )}
          {can.create && (
            <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => navigate(`/app/table/${table}/importview`)}>
              {t('grid.import')}
            </Button>
          )}
          {can.remove && selection.size > 0 && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirmBulk(true)}>
              {t('grid.delete_selected', { count: selection.size })}
            </Button>
          )}
          {can.create && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => navigate(`/app/table/${table}/create`)}
            >
              {t('grid.create')}
            </Button>
          )}
        </Group>
      </Group>

      <Group gap="xs" wrap="wrap">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('grid.search_placeholder')}
          aria-label={t('grid.search')}
          value={searchText}
          onChange={(e) => {
            setSearchText(e.currentTarget.value);
            commitSearch(e.currentTarget.value);
          }}
          w={280}
        />
        <Indicator label={state.filters.length} size={16} disabled={state.filters.length === 0}>
          <Button
            variant={filtersOpen ? 'light' : 'default'}
            leftSection={<IconFilter size={16} />}
            onClick={() => setFiltersOpen((o) => !o)}
            aria-expanded={filtersOpen}
          >
            {t('grid.filters')}
          </Button>
        </Indicator>
        {filtered && (
          <Button variant="subtle" leftSection={<IconAdjustments size={16} />} onClick={resetFilters}>
            {t('grid.reset_filters')}
          </Button>
        )}
        {variant?.toolbar?.(state, (patch) => {
          // The filter panel shows what a quick control set.
          if ('filters' in patch) setFilterKey((k) => k + 1);
          update(patch);
        })}
      </Group>

      {filtersOpen && (
        <FilterPanel
          key={filterKey}
          entity={table}
          attributes={attrs}
          filters={state.filters}
          onChange={(filters) => update({ filters })}
          onReset={resetFilters}
        />
      )}

      <div ref={gridRef}>
        {list.isError && !list.data ? (
          <Alert color="red" title={t('grid.load_failed')}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{serverDetail(list.error)}</Text>
              <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => list.refetch()}>
                {t('general.reload')}
              </Button>
            </Stack>
          </Alert>
        ) : !answer ? (
          <Group justify="center" p="xl">
            <Loader />
          </Group>
        ) : rows.length === 0 ? (
          <Stack align="center" p="xl" gap="sm" data-testid="empty-state">
            <Text fw={500}>{filtered ? t('grid.empty_filtered') : t('grid.empty', { entity: tableLabel(t, table) })}</Text>
            {filtered && (
              <Button variant="light" onClick={resetFilters}>
                {t('grid.reset_filters')}
              </Button>
            )}
          </Stack>
        ) : (
          <DataTable
            rows={rows}
            columns={columns}
            rowKey={rowKey}
            label={label}
            sort={sort}
            onSortChange={(sort) => update({ sort })}
            onOpen={open}
            selection={can.remove || table === 'board' ? selection : undefined}
            onSelectionChange={can.remove || table === 'board' ? setSelection : undefined}
            onCellCommit={inlineEdit ? commitCell : undefined}
            height={height}
            truncateAt={TRUNCATE_AT[table]}
            busy={list.isFetching || loadingRest}
            sortLabels={{ asc: t('grid.sort_asc'), desc: t('grid.sort_desc'), none: t('grid.sort_none') }}
            selectAllLabel={t('grid.select_all')}
            selectRowLabel={t('grid.select_row')}
          />
        )}
      </div>

      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {rows.length > 0
            ? t('grid.range', {
                from: from.toLocaleString(i18n.language),
                to: to.toLocaleString(i18n.language),
                total: (total ?? to).toLocaleString(i18n.language),
              })
            : ''}
        </Text>
        <Group gap="xs">
          <Select
            aria-label={t('grid.page_size')}
            data={pageSizesFor(table).map((n) => ({ value: String(n), label: n.toLocaleString(i18n.language) }))}
            value={String(state.perPage)}
            onChange={(v) => v && update({ perPage: Number(v) })}
            w={110}
            allowDeselect={false}
          />
          <Pagination
            total={pages}
            value={state.page}
            onChange={(page) => update({ page })}
            size="sm"
            siblings={1}
            getControlProps={(control) => ({ 'aria-label': t(`grid.page_${control}`) })}
          />
        </Group>
      </Group>

      <ConfirmDialog
        opened={confirmBulk}
        title={t('grid.delete_title')}
        message={t('grid.delete_selected_confirm', { count: selection.size })}
        confirmLabel={t('grid.delete')}
        danger
        loading={bulkDelete.isPending}
        onCancel={() => setConfirmBulk(false)}
        onConfirm={() =>
          bulkDelete.mutate(
            { table, ids: [...selection] },
            {
              onSuccess: () => {
                notifySuccess(t('grid.deleted_count', { count: selection.size }));
                setSelection(new Set());
                setConfirmBulk(false);
              },
              onError: (error) => {
                setConfirmBulk(false);
                toastError(error);
              },
            },
          )
        }
      />
    </Stack>
  );
}

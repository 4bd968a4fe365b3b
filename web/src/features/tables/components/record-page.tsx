import { Anchor, Breadcrumbs, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { rowLabel } from '../../../lib/data-provider';
import { notifySuccess } from '../../../lib/notify';
import type { Row, TableDefinition } from '../../../lib/table-definition';
import { useDeleteRecord } from '../api/delete-record';
import { useDefinition } from '../api/get-definition';
import { useRecord } from '../api/get-record';
import { ConfirmDialog } from './confirm-dialog';
import { RecordEditor } from './record-editor';
import { type ExtraTab, RelationTabs } from './relation-tabs';
import { DefinitionError, newRecordTitle, tableLabel } from './table-common';
import { toastError } from './table-errors';

/** Something an entity's page shows beside the record's title (a status badge). */
export type RecordTitleExtra = (row: Row, def: TableDefinition) => ReactNode;

/** Custom tabs of a record page, made from the record's id and row. */
export type RecordExtraTabs = (id: string, row: Row) => ExtraTab[];

/** /app/table/{table}/view/{id} (edit with ?edit=true) and /app/table/{table}/create. */
export default function RecordPage({
  table: fixedTable,
  titleExtra,
  extraTabs,
}: { table?: string; titleExtra?: RecordTitleExtra; extraTabs?: RecordExtraTabs } = {}) {
  const params = useParams();
  const table = fixedTable ?? params.table ?? '';
  const { id } = params;
  const definition = useDefinition(table);
  if (definition.isPending) return <Loader m="xl" />;
  if (definition.isError) return <DefinitionError table={table} error={definition.error} />;
  return id ? <ExistingRecord key={`${table}/${id}`} table={table} id={id} def={definition.data} titleExtra={titleExtra} extraTabs={extraTabs} /> : <NewRecord table={table} def={definition.data} />;
}

/** The page's title; a record's key shows beside it as "#12" (no form field of its own), `extra` after it (a status badge). */
function Header({ table, title, id, extra }: { table: string; title: string; id?: string; extra?: ReactNode }) {
  const { t } = useTranslation();
  const key = id !== undefined && title !== `#${id}` ? `#${id}` : null;
  return (
    <Stack gap={4} miw={0}>
      <Breadcrumbs>
        <Anchor component={Link} to={`/app/table/${table}`} size="sm">
          {tableLabel(t, table)}
        </Anchor>
        <span>{title}</span>
      </Breadcrumbs>
      <Group gap="sm" align="center" wrap="wrap">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
          {/* A space, so the heading reads "Lease Mannheim #12", not "Lease Mannheim#12". */}
          {key && ' '}
          {key && (
            <Text span c="dimmed" fw={500} fz="lg" ml="xs" data-testid="record-key" style={{ whiteSpace: 'nowrap' }}>
              {key}
            </Text>
          )}
        </Title>
        {extra}
      </Group>
    </Stack>
  );
}

/** Values preset through the query string (?pos_id=4 from a relation tab). */
function presetFrom(search: URLSearchParams, def: TableDefinition): Row {
  const out: Row = {};
  for (const a of def.attributes) {
    const raw = search.get(a.attribute);
    if (raw === null) continue;
    out[a.attribute] = a.type === 'id' || a.type === 'int' || a.type === 'decimal' || a.type === 'bool' ? Number(raw) : raw;
  }
  return out;
}

function NewRecord({ table, def }: { table: string; def: TableDefinition }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [preset] = useState(() => presetFrom(search, def));
  return (
    <Stack gap="md" maw={1100}>
      <Header table={table} title={newRecordTitle(t, table)} />
      <Paper withBorder p="lg" radius="md">
        <RecordEditor
          table={table}
          def={def}
          mode="create"
          row={preset}
          guardNavigation
          onCancel={() => navigate(`/app/table/${table}`)}
          onSaved={(row) => navigate(`/app/table/${table}/view/${String(row[def.primary_key] ?? '')}`, { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

function ExistingRecord({
  table,
  id,
  def,
  titleExtra,
  extraTabs,
}: {
  table: string;
  id: string;
  def: TableDefinition;
  titleExtra?: RecordTitleExtra;
  extraTabs?: RecordExtraTabs;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const [search, setSearch] = useSearchParams();
  const record = useRecord(table, id);
  const remove = useDeleteRecord();
  const [confirm, setConfirm] = useState(false);
  const subject = def.access_subject || def.subject || table;
  const canUpdate = def.limits.update && ability.can('update', subject);
  // ?edit=true opens the form only where the server takes an update (not
  // on a read-only table such as the text templates).
  const editing = search.get('edit') === 'true' && canUpdate;
  const canRemove = def.limits.delete && ability.can('remove', subject);

  if (record.isPending) return <Loader m="xl" />;
  if (record.isError) return <DefinitionError table={table} error={record.error} record />;
  const row = record.data.data;
  const title = rowLabel(row, def.label) || `#${id}`;
  const setEdit = (on: boolean) =>
    setSearch(
      (p) => {
        const next = new URLSearchParams(p);
        if (on) next.set('edit', 'true');
        else next.delete('edit');
        return next;
      },
      { replace: false },
    );

  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Header table={table} title={title} id={id} extra={titleExtra?.(row, def)} />
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to={`/app/table/${table}`}>
            {t('form.back_to_list')}
          </Button>
          {!editing && canUpdate && (
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEdit(true)}>
              {t('form.edit')}
            </Button>
          )}
          {canRemove && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirm(true)}>
              {t('grid.delete')}
            </Button>
          )}
        </Group>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <RecordEditor
          key={`${editing}-${String(row.row_version ?? '')}`}
          table={table}
          def={{ ...def, attributes: record.data.attributes?.length ? record.data.attributes : def.attributes }}
          mode={editing ? 'update' : 'view'}
          id={id}
          row={row}
          guardNavigation={editing}
          onCancel={() => setEdit(false)}
          onSaved={() => setEdit(false)}
          onReload={async () => (await record.refetch()).data?.data}
        />
      </Paper>
      <RelationTabs
        table={table}
        id={id}
        def={def}
        relations={record.data.relations ?? def.relations}
        extraTabs={extraTabs?.(id, row)}
      />
      <ConfirmDialog
        opened={confirm}
        title={t('grid.delete_title')}
        message={t('form.delete_confirm', { name: title })}
        confirmLabel={t('grid.delete')}
        danger
        loading={remove.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() =>
          remove.mutate(
            { table, id, rowVersion: Number(row.row_version ?? 0) || null },
            {
              onSuccess: () => {
                notifySuccess(t('form.deleted'));
                navigate(`/app/table/${table}`, { replace: true });
              },
              onError: (error) => {
                setConfirm(false);
                toastError(error);
              },
            },
          )
        }
      />
    </Stack>
  );
}

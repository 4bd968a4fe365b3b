import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconHistory, IconLink, IconLinkOff, IconPlus, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table/data-table';
import { historyTypeText, labelAsks, useRowLabels, valueText } from '../../../components/history/history-text';
import { RecordForm } from '../../../components/form/record-form';
import { RemoteSelect } from '../../../components/form/remote-select';
import { useRecordForm } from '../../../components/form/use-record-form';
import { useAbility } from '../../../lib/ability-context';
import { formatDate } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, RelationDefinition, Row, TableDefinition } from '../../../lib/table-definition';
import { DOCUMENT_OWNER_FIELDS, downloadDocument } from '../api/documents';
import { useDefinition } from '../api/get-definition';
import { useLightThresholds } from '../api/get-light-thresholds';
import { useHistory } from '../api/get-history';
import { useLinkRelation } from '../api/link-relation';
import { useListRows } from '../api/list-rows';
import { useUnlinkRelation } from '../api/unlink-relation';
import { buildColumns, defaultColumns } from './columns';
import { ConfirmDialog } from './confirm-dialog';
import { NoTypeBadge } from '../../documents/components/no-type-badge';
import { DocumentUploadModal } from './document-upload-modal';
import { lightColumn } from './light-column';
import { LinkRowModal, RelationCreateModal, RelationRowModal } from './relation-row-modal';
import { serverDetail, toastError } from './table-errors';
import { DEADLINE_ENTITY, DEFAULT_THRESHOLDS } from './traffic-light';

/** The document's type field: empty until the document is typed (decision 0065). */
const DOCUMENT_TYPE_FIELD = 'documenttype_id';

export interface RelationTabsProps {
  table: string;
  id: string;
  def: TableDefinition;
  relations: RelationDefinition[];
  /** Custom tabs of an entity's page, after the relations; one with `replaces` takes that relation's place. */
  extraTabs?: ExtraTab[];
}

/** A custom tab below a record (the adjustments of a payment, a contract's schedule). */
export interface ExtraTab {
  value: string;
  label: string;
  panel: ReactNode;
  /** The API name of the relation tab it stands in for (shown only when that one would be). */
  replaces?: string;
}

/** The relation tabs below a record, plus its history. */
export function RelationTabs({ table, id, def, relations, extraTabs = [] }: RelationTabsProps) {
  const { t } = useTranslation();
  const ability = useAbility();
  const replaced = new Map(extraTabs.filter((x) => x.replaces).map((x) => [x.replaces as string, x]));
  const visible = relations.filter((r) =>
    r.subject ? ability.can('list', r.subject) : ability.can('list', r.target) || ability.can('read', r.target),
  );
  // A tab standing in for a relation shows where that relation would (and only when it would).
  const extras = extraTabs.filter((x) => !x.replaces);
  const [tab, setTab] = useState<string | null>(
    (visible[0] && (replaced.get(visible[0].api)?.value ?? visible[0].api)) ?? extras[0]?.value ?? 'history',
  );
  // ?tab=history (the admin side panel's link) opens that tab.
  const wanted = useSearchParams()[0].get('tab');
  useEffect(() => {
    if (wanted) setTab(wanted);
  }, [wanted]);
  return (
    <Paper withBorder radius="md" p="sm">
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {visible.map((r) => {
            const x = replaced.get(r.api);
            return (
              <Tabs.Tab key={r.api} value={x?.value ?? r.api}>
                {x?.label ?? r.label}
              </Tabs.Tab>
            );
          })}
          {extras.map((x) => (
            <Tabs.Tab key={x.value} value={x.value}>
              {x.label}
            </Tabs.Tab>
          ))}
          <Tabs.Tab value="history" leftSection={<IconHistory size={14} />}>
            {t('relation.history')}
          </Tabs.Tab>
        </Tabs.List>
        {visible.map((r) => {
          const x = replaced.get(r.api);
          return (
            <Tabs.Panel key={r.api} value={x?.value ?? r.api} pt="sm">
              {x ? x.panel : <RelationPanel table={table} id={id} def={def} relation={r} />}
            </Tabs.Panel>
          );
        })}
        {extras.map((x) => (
          <Tabs.Panel key={x.value} value={x.value} pt="sm">
            {x.panel}
          </Tabs.Panel>
        ))}
        <Tabs.Panel value="history" pt="sm">
          <HistoryPanel table={table} id={id} def={def} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}

function RelationPanel({ table, id, def, relation }: { table: string; id: string; def: TableDefinition; relation: RelationDefinition }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const ownerSubject = def.access_subject || def.subject || table;
  const list = useListRows(relation.api, { data: { [def.primary_key]: Number(id) }, perPage: 1000, count: true });
  const target = useDefinition(relation.target);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [linking, setLinking] = useState(false);
  const [confirmUnlink, setConfirmUnlink] = useState(false);
  const unlink = useUnlinkRelation();
  const many = relation.kind === 'many_to_many';
  const canLink = many && !relation.read_only && ability.can('update', relation.subject ?? ownerSubject);
  // The server asks the entity's subject or its access subject (spelt
  // differently for a few, service_object): either allows.
  const canCreate =
    !many &&
    !relation.read_only &&
    Boolean(relation.foreign_key) &&
    (ability.can('create', relation.target) || Boolean(target.data?.access_subject && ability.can('create', target.data.access_subject)));
  const attrs: AttributeDefinition[] = list.data?.attributes ?? target.data?.attributes ?? [];
  const targetPk = target.data?.primary_key ?? relation.target_key ?? `${relation.target}_id`;
  const linkKey = relation.target_key ?? targetPk;
  // A child row of a has-many relation is edited in a modal (a normal update
  // of the child); so are a link's attributes (update-link), except on links
  // with a key of their own, which the server cannot change yet: their rows,
  // like rows nobody may edit here, open the related record.
  const targetSubject = target.data ? target.data.access_subject || target.data.subject || relation.target : relation.target;
  const canEditRow = !many && !relation.read_only && Boolean(target.data?.limits.update) && ability.can('update', targetSubject);
  const canEditLink = canLink && (relation.attributes?.length ?? 0) > 0;
  const [editing, setEditing] = useState<string | null>(null);
  const [editingLink, setEditingLink] = useState<Row | null>(null);
  // A documents tab uploads new PDFs for the record and opens a document by
  // downloading it.
  const documents = relation.target === 'document';
  const canUpload = documents && canLink && DOCUMENT_OWNER_FIELDS.has(def.primary_key) && ability.can('create', 'document');
  const [uploading, setUploading] = useState(false);
  // A new child is created in a modal over the record, so the tab shows it
  // at once with what the server computed (a deadline's notice date).
  const [creating, setCreating] = useState(false);
  const openRow = (row: Row) => {
    if (documents) {
      downloadDocument(String(row[targetPk]), String(row.document_name ?? 'document')).catch(toastError);
      return;
    }
    if (canEditRow) setEditing(String(row[targetPk]));
    else if (canEditLink) setEditingLink(row);
    else navigate(`/app/table/${relation.target}/view/${String(row[targetPk])}`);
  };
  const ctx = useMemo(() => ({ lang: i18n.language, yes: t('grid.yes'), no: t('grid.no') }), [i18n.language, t]);
  // A tab of deadlines leads with each one's traffic light, as the deadline list does.
  const deadlines = relation.target === DEADLINE_ENTITY;
  const thresholds = useLightThresholds(deadlines).data ?? DEFAULT_THRESHOLDS;
  const columns = useMemo(() => {
    const linkAttrs = (relation.attributes ?? []).map((a) => a.attribute);
    // The record's own key is no column of its tab: every row shares it.
    const own = new Set([...linkAttrs, ...(relation.foreign_key ? [relation.foreign_key] : [])]);
    const keys = { primaryKey: targetPk, label: target.data?.label };
    const base = defaultColumns(attrs.filter((a) => !own.has(a.attribute)), keys).slice(0, 6);
    const built = buildColumns(attrs, [...base, ...linkAttrs.filter((a) => attrs.some((x) => x.attribute === a))], ctx, {
      primaryKey: targetPk,
    });
    if (documents) {
      // A document uploaded without a type says so (it is not stamped or signed until it has one).
      for (const c of built) {
        if (c.id === DOCUMENT_TYPE_FIELD) c.render = (row, text) => (row[DOCUMENT_TYPE_FIELD] == null ? <NoTypeBadge /> : text);
      }
    }
    return deadlines ? [lightColumn(t, thresholds, new Date()), ...built] : built;
  }, [attrs, relation.attributes, relation.foreign_key, ctx, targetPk, target.data?.label, deadlines, thresholds, t, documents]);
  const rows = list.data?.data.data ?? [];
  const rowKey = (row: Row) => String(row.link_id ?? row[`${relation.link}_id`] ?? row[targetPk]);

  return (
    <Stack gap="xs" data-relation={relation.api}>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {list.data ? t('grid.row_count', { count: list.data.data.total ?? rows.length }) : ''}
        </Text>
        <Group gap="xs">
          {canLink && selection.size > 0 && (
            <Button size="xs" variant="light" color="red" leftSection={<IconLinkOff size={14} />} onClick={() => setConfirmUnlink(true)}>
              {t('relation.end_link', { count: selection.size })}
            </Button>
          )}
          {canUpload && (
            <Button size="xs" leftSection={<IconUpload size={14} />} onClick={() => setUploading(true)}>
              {t('documents.upload')}
            </Button>
          )}
          {canLink && (
            <Button size="xs" variant={canUpload ? 'light' : 'filled'} leftSection={<IconLink size={14} />} onClick={() => setLinking(true)}>
              {t('relation.add_link')}
            </Button>
          )}
          {canCreate && relation.foreign_key && (
            <Button
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setCreating(true)}
            >
              {t('relation.create_child')}
            </Button>
          )}
        </Group>
      </Group>
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <Alert color="red">{serverDetail(list.error)}</Alert>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" p="md" ta="center">
          {!documents ? t('relation.empty') : canUpload ? t('documents.empty_upload') : t('documents.empty')}
        </Text>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={rowKey}
          label={relation.label}
          height={Math.min(420, 40 + rows.length * 36)}
          onOpen={openRow}
          selection={canLink ? selection : undefined}
          onSelectionChange={canLink ? setSelection : undefined}
          selectAllLabel={t('grid.select_all')}
          selectRowLabel={t('grid.select_row')}
        />
      )}
      {linking && target.data && (
        <LinkModal
          relation={relation}
          ownerId={id}
          targetDef={target.data}
          linkKey={linkKey}
          onClose={() => setLinking(false)}
        />
      )}
      {uploading && target.data && (
        <DocumentUploadModal
          documentDef={target.data}
          relationApi={relation.api}
          owner={{ field: def.primary_key, id }}
          onClose={() => setUploading(false)}
        />
      )}
      {creating && target.data && relation.foreign_key && (
        <RelationCreateModal
          relation={relation}
          targetDef={target.data}
          preset={{ [relation.foreign_key]: Number(id) }}
          owner={{ table, id }}
          onClose={() => setCreating(false)}
        />
      )}
      {editing !== null && target.data && (
        <RelationRowModal
          relation={relation}
          targetDef={target.data}
          id={editing}
          owner={{ table, id }}
          onClose={() => setEditing(null)}
        />
      )}
      {editingLink !== null && target.data && (
        <LinkRowModal
          relation={relation}
          ownerId={id}
          targetDef={target.data}
          row={editingLink}
          linkKey={linkKey}
          onClose={() => setEditingLink(null)}
        />
      )}
      <ConfirmDialog
        opened={confirmUnlink}
        title={t('relation.end_link_title')}
        message={t('relation.end_link_confirm', { count: selection.size })}
        confirmLabel={t('relation.end_link', { count: selection.size })}
        danger
        loading={unlink.isPending}
        onCancel={() => setConfirmUnlink(false)}
        onConfirm={async () => {
          try {
            for (const key of selection) {
              const row = rows.find((r) => rowKey(r) === key);
              if (!row) continue;
              await unlink.mutateAsync({ api: relation.api, ownerId: id, data: { [linkKey]: row[linkKey] ?? row[targetPk] } });
            }
            notifySuccess(t('relation.link_ended'));
            setSelection(new Set());
          } catch (error) {
            toastError(error);
          } finally {
            setConfirmUnlink(false);
          }
        }}
      />
    </Stack>
  );
}

function LinkModal({
  relation,
  ownerId,
  targetDef,
  linkKey,
  onClose,
}: {
  relation: RelationDefinition;
  ownerId: string;
  targetDef: TableDefinition;
  linkKey: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const link = useLinkRelation();
  const form = useRecordForm(relation.attributes ?? [], 'create');
  const [target, setTarget] = useState<number | null>(null);
  const [targetError, setTargetError] = useState<string | undefined>();
  const submit = async () => {
    const ok = form.validate();
    if (target === null) setTargetError(form.env.t('validation.required', { field: relation.label }));
    if (!ok || target === null) return;
    try {
      await link.mutateAsync({ api: relation.api, ownerId, data: { ...form.payload(), [linkKey]: target } });
      notifySuccess(t('relation.linked'));
      onClose();
    } catch (error) {
      if (error instanceof Error && 'fieldErrors' in error) {
        form.setServerErrors((error as { fieldErrors: () => Record<string, string> }).fieldErrors());
      }
      toastError(error);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`${t('relation.add_link')}: ${relation.label}`} size="lg">
      <Stack>
        <RemoteSelect
          refDef={{ table: targetDef.table, key: targetDef.primary_key, label: targetDef.label }}
          label={relation.label}
          value={target}
          onChange={(v) => {
            setTarget(typeof v === 'number' ? v : null);
            setTargetError(undefined);
          }}
          required
          error={targetError}
          nothingFound={t('form.not_available', { field: relation.label })}
        />
        {(relation.attributes?.length ?? 0) > 0 && <RecordForm form={form} columns={2} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={link.isPending}>
            {t('relation.add_link')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** One line of a history entry: a field (or a link's attribute) with its old and new value. */
export interface ChangeLine {
  key: string;
  label: string;
  from: unknown;
  to: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The lines of a history entry's changes. A field reads `{field: [old, new]}`;
 * a link reads `{relation: [old, new]}` with the other end's id, or, when a
 * link's attributes changed, the link rows before and after: those become a
 * line per changed attribute ("Cost types · Comment").
 */
export function changeLines(changes: Record<string, unknown>, def: TableDefinition): ChangeLine[] {
  const labels = new Map(def.attributes.map((a) => [a.attribute, a.attribute_i18n]));
  const relations = new Map(def.relations.map((r) => [r.name, r]));
  const lines: ChangeLine[] = [];
  for (const [field, pair] of Object.entries(changes)) {
    const [from, to] = Array.isArray(pair) ? pair : [undefined, pair];
    const relation = relations.get(field);
    const label = relation?.label ?? labels.get(field) ?? field;
    if (isPlainObject(from) || isPlainObject(to)) {
      const before = isPlainObject(from) ? from : {};
      const after = isPlainObject(to) ? to : {};
      const attrLabels = new Map((relation?.attributes ?? []).map((a) => [a.attribute, a.attribute_i18n]));
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
        lines.push({ key: `${field}.${key}`, label: `${label} · ${attrLabels.get(key) ?? labels.get(key) ?? key}`, from: before[key], to: after[key] });
      }
      continue;
    }
    lines.push({ key: field, label, from, to });
  }
  return lines;
}

function HistoryPanel({ table, id, def }: { table: string; id: string; def: TableDefinition }) {
  const { t, i18n } = useTranslation();
  const history = useHistory(table, id);
  const labels = useRowLabels(useMemo(() => labelAsks(def, (history.data ?? []).map((e) => e.changes), Number(id)), [def, history.data, id]));
  // A line's field: the field itself, or the attribute of a link (the part after the relation name).
  const shown = (line: ChangeLine, value: unknown) => valueText(value, line.key.split('.').pop() ?? line.key, def, labels, t, i18n.language);
  if (history.isPending) return <Loader size="sm" />;
  if (history.isError) return <Alert color="red">{serverDetail(history.error)}</Alert>;
  if (history.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" p="md" ta="center">
        {t('relation.history_empty')}
      </Text>
    );
  }
  return (
    <Table striped verticalSpacing="xs" fz="sm" aria-label={t('relation.history')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={150}>{t('relation.when')}</Table.Th>
          <Table.Th w={110}>{t('relation.what')}</Table.Th>
          <Table.Th w={180}>{t('relation.who')}</Table.Th>
          <Table.Th>{t('relation.changes')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.data.map((entry, i) => (
          <Table.Tr key={`${entry.timestamp}-${i}`}>
            <Table.Td>{formatDate(entry.timestamp, i18n.language)}</Table.Td>
            <Table.Td>
              <Badge variant="light">{historyTypeText(entry.type, t)}</Badge>
            </Table.Td>
            <Table.Td>{entry.user}</Table.Td>
            <Table.Td>
              {changeLines(entry.changes, def).map((line) => (
                <div key={line.key}>
                  <Text span fw={500}>
                    {line.label}:
                  </Text>{' '}
                  <Text span c="dimmed" td="line-through">
                    {shown(line, line.from)}
                  </Text>{' '}
                  → {shown(line, line.to)}
                </div>
              ))}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

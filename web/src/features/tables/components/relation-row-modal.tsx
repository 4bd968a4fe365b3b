import { Alert, Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { useRecordForm } from '../../../components/form/use-record-form';
import { rowLabel } from '../../../lib/data-provider';
import { notifySuccess } from '../../../lib/notify';
import { invalidateRecord } from '../../../lib/record-keys';
import type { RelationDefinition, Row, TableDefinition } from '../../../lib/table-definition';
import { useRecord } from '../api/get-record';
import { tableKeys } from '../api/keys';
import { useUpdateLink } from '../api/update-link';
import { DiscardChangesDialog } from './confirm-dialog';
import { RecordEditor } from './record-editor';
import { serverDetail, toastError } from './table-errors';

export interface RelationRowModalProps {
  relation: RelationDefinition;
  /** The related entity's served definition. */
  targetDef: TableDefinition;
  /** The key of the row to edit. */
  id: string;
  /** The record whose tab this is. */
  owner: RelationOwner;
  onClose: () => void;
}

/** The record a relation tab belongs to. */
export interface RelationOwner {
  table: string;
  id: string;
}

/**
 * After a child of owner was written through relation: its tab, every list
 * of the child's entity (the deadline list) and whatever any screen shows of
 * the owner (its derived values may follow its children: a contract's next
 * notice date in the record and its side panel) load again.
 */
function refreshAfterChildWrite(client: QueryClient, relation: RelationDefinition, owner: RelationOwner) {
  void client.invalidateQueries({ queryKey: tableKeys.lists(relation.api) });
  void client.invalidateQueries({ queryKey: tableKeys.lists(relation.target) });
  void client.invalidateQueries({ queryKey: tableKeys.record(owner.table, owner.id).slice(0, 4) });
  void invalidateRecord(client, owner.table, owner.id);
}

/**
 * Edits a row of a has-many relation tab in a modal: a normal update of the
 * child record with its served rules, 422 on the fields, 409 with a reload.
 * Closing with unsaved changes asks first.
 */
export function RelationRowModal({ relation, targetDef, id, owner, onClose }: RelationRowModalProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const record = useRecord(relation.target, id);
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const onDirtyChange = useCallback((next: boolean) => setDirty(next), []);
  const close = () => (dirty ? setAsking(true) : onClose());
  const row = record.data?.data;
  const name = row ? rowLabel(row, targetDef.label) || `#${id}` : `#${id}`;

  return (
    <>
      <Modal opened onClose={close} title={`${relation.label}: ${name}`} size="xl" closeOnClickOutside={false}>
        {record.isPending ? (
          <Loader size="sm" />
        ) : record.isError ? (
          <Alert color="red">{serverDetail(record.error)}</Alert>
        ) : (
          <RecordEditor
            key={String(row?.row_version ?? '')}
            table={relation.target}
            def={{ ...targetDef, attributes: record.data.attributes?.length ? record.data.attributes : targetDef.attributes }}
            mode="update"
            id={id}
            row={row}
            onDirtyChange={onDirtyChange}
            onCancel={close}
            onSaved={() => {
              refreshAfterChildWrite(client, relation, owner);
              onClose();
            }}
            onReload={async () => (await record.refetch()).data?.data}
            actions={
              <Button
                variant="subtle"
                mr="auto"
                leftSection={<IconExternalLink size={14} />}
                component={Link}
                to={`/app/table/${relation.target}/view/${encodeURIComponent(id)}`}
              >
                {t('relation.open_record')}
              </Button>
            }
          />
        )}
      </Modal>
      <DiscardChangesDialog
        opened={asking}
        onKeep={() => setAsking(false)}
        onDiscard={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}

export interface RelationCreateModalProps {
  relation: RelationDefinition;
  /** The related entity's served definition. */
  targetDef: TableDefinition;
  /** The new row's link to the record ({contract_id: 4}). */
  preset: Row;
  /** The record whose tab this is. */
  owner: RelationOwner;
  onClose: () => void;
}

/**
 * Creates a row of a has-many relation tab in a modal: a normal create of
 * the child with its served rules; afterwards the tab reloads and shows the
 * row as the server stored it (derived values included). Closing with
 * unsaved changes asks first.
 */
export function RelationCreateModal({ relation, targetDef, preset, owner, onClose }: RelationCreateModalProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const onDirtyChange = useCallback((next: boolean) => setDirty(next), []);
  const close = () => (dirty ? setAsking(true) : onClose());
  return (
    <>
      <Modal opened onClose={close} title={`${relation.label}: ${t('relation.create_child')}`} size="xl" closeOnClickOutside={false}>
        <RecordEditor
          table={relation.target}
          def={targetDef}
          mode="create"
          row={preset}
          onDirtyChange={onDirtyChange}
          onCancel={close}
          onSaved={() => {
            refreshAfterChildWrite(client, relation, owner);
            onClose();
          }}
        />
      </Modal>
      <DiscardChangesDialog
        opened={asking}
        onKeep={() => setAsking(false)}
        onDiscard={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}

/** True when the rows of a many-to-many relation are links with a key of their own (pairs may repeat). */
export function linkHasOwnKey(relation: RelationDefinition, row: Row): boolean {
  return relation.link !== undefined && `${relation.link}_id` in row;
}

export interface LinkRowModalProps {
  relation: RelationDefinition;
  /** The record whose relation it is. */
  ownerId: string;
  /** The related entity's served definition (the title's label). */
  targetDef: TableDefinition;
  /** The relation row: the other end with the link's attributes. */
  row: Row;
  /** The other end's key column in the link. */
  linkKey: string;
  onClose: () => void;
}

/**
 * Changes a link's attributes (valid_from, valid_to, comment, ...) in a
 * modal: the served rules of the link attributes, the server's update-link,
 * 422 on the fields. Closing with unsaved changes asks first.
 */
export function LinkRowModal({ relation, ownerId, targetDef, row, linkKey, onClose }: LinkRowModalProps) {
  const { t } = useTranslation();
  const update = useUpdateLink();
  const form = useRecordForm(relation.attributes ?? [], 'update', row);
  const [formError, setFormError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const close = () => (form.dirty ? setAsking(true) : onClose());
  const other = row[linkKey] ?? row[targetDef.primary_key];
  const name = rowLabel(row, targetDef.label) || `#${String(other)}`;
  // "Please correct the marked fields" goes once nothing is marked any more.
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;

  const submit = async () => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    try {
      // A link with a key of its own (pairs may repeat) is named by that
      // key; any other by its other end.
      const ownKey = `${relation.link}_id`;
      const which = linkHasOwnKey(relation, row) ? { [ownKey]: row[ownKey] } : { [linkKey]: other };
      await update.mutateAsync({ api: relation.api, ownerId, data: { ...form.payload(), ...which } });
      form.markSaved();
      notifySuccess(t('form.saved'));
      onClose();
    } catch (error) {
      const message = applyFieldErrors(error, form, t('form.fix_errors'));
      setFormError(message ?? serverDetail(error));
      if (message === null) toastError(error);
    }
  };

  return (
    <>
      <Modal opened onClose={close} title={`${relation.label}: ${name}`} size="lg" closeOnClickOutside={false}>
        <form
          noValidate
          aria-label={t('relation.edit_link')}
          onSubmit={(e) => {
            e.preventDefault();
            e.stopPropagation();
            void submit();
          }}
        >
          <Stack>
            <RecordForm form={form} row={row} columns={2} />
            {shownError && (
              <Alert color="red" role="alert" variant="light">
                {shownError}
              </Alert>
            )}
            <Group justify="flex-end" gap="xs">
              <Button
                variant="subtle"
                mr="auto"
                leftSection={<IconExternalLink size={14} />}
                component={Link}
                to={`/app/table/${relation.target}/view/${encodeURIComponent(String(other))}`}
              >
                {t('relation.open_record')}
              </Button>
              <Button variant="default" onClick={close} disabled={update.isPending}>
                {t('form.cancel')}
              </Button>
              <Button type="submit" loading={update.isPending}>
                {t('form.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <DiscardChangesDialog
        opened={asking}
        onKeep={() => setAsking(false)}
        onDiscard={() => {
          setAsking(false);
          onClose();
        }}
      />
    </>
  );
}

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormServices } from '../../../components/form/field-input';
import { RecordForm } from '../../../components/form/record-form';
import { UnsavedChangesGuard } from '../../../components/form/unsaved-changes-guard';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { type FormMode, useRecordForm } from '../../../components/form/use-record-form';
import { ApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import type { Row, TableDefinition } from '../../../lib/table-definition';
import { useCreateRecord } from '../api/create-record';
import { generatePassword } from '../api/generate-password';
import { tableKeys } from '../api/keys';
import { useUpdateRecord } from '../api/update-record';
import { ListFieldExtras } from './list-field-extras';
import { serverDetail, toastError } from './table-errors';

export interface RecordEditorProps {
  table: string;
  def: TableDefinition;
  mode: FormMode;
  id?: string;
  row?: Row | null;
  /** Called with the saved row. */
  onSaved?: (row: Row) => void;
  onCancel?: () => void;
  /** Ask before leaving with unsaved changes (pages, not modals). */
  guardNavigation?: boolean;
  columns?: number;
  /** Allow "Create New Element" and the popup on list fields. */
  nested?: boolean;
  /** Extra buttons left of Save. */
  actions?: ReactNode;
  /** Reloads the stored record (after a 409). */
  onReload?: () => Promise<Row | null | undefined>;
  /** Rendered inside another form: the accessible name of the sub-form (no <form> element). */
  embedded?: string;
  /** Reports unsaved changes (a modal asks before it closes). */
  onDirtyChange?: (dirty: boolean) => void;
}

/** A generic form with its save flow: client rules, 422 on fields, 409 reload, unsaved-changes guard. */
export function RecordEditor({
  table,
  def,
  mode,
  id,
  row,
  onSaved,
  onCancel,
  guardNavigation,
  columns,
  nested = true,
  actions,
  onReload,
  embedded,
  onDirtyChange,
}: RecordEditorProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useRecordForm(def.attributes, mode, row);
  const create = useCreateRecord();
  const update = useUpdateRecord();
  const [conflict, setConflict] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const busy = saving || create.isPending || update.isPending;
  const dirty = form.dirty && !saving;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const services: FormServices = {
    generatePassword,
    listExtras: nested ? (attr, select) => <ListFieldExtras attr={attr} onCreated={select} /> : undefined,
  };

  const submit = async () => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    const data = form.payload();
    setSaving(true);
    try {
      const answer =
        mode === 'create'
          ? await create.mutateAsync({ table, data })
          : await update.mutateAsync({ table, id: id ?? '', data, rowVersion: Number(row?.row_version ?? 0) || null });
      form.markSaved();
      notifySuccess(mode === 'create' ? t('form.created') : t('form.saved'));
      if (id) await client.invalidateQueries({ queryKey: tableKeys.record(table, id) });
      onSaved?.(answer?.data ?? {});
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setConflict(true);
      } else {
        const message = applyFieldErrors(error, form, t('form.fix_errors'));
        setFormError(message ?? serverDetail(error));
        if (message === null) toastError(error);
      }
    } finally {
      setSaving(false);
    }
  };

  const reload = async () => {
    const fresh = onReload ? await onReload() : row;
    form.reset(fresh ?? row);
    setConflict(false);
  };

  // "Please correct the marked fields" goes once nothing is marked any more.
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;

  const body = (
    <Stack gap="md">
      <RecordForm form={form} row={row} services={services} columns={columns} entity={table} />
      {shownError && (
        <Alert color="red" role="alert" variant="light">
          {shownError}
        </Alert>
      )}
      {mode !== 'view' && (
        <Group justify="flex-end" gap="xs">
          {actions}
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {t('form.cancel')}
            </Button>
          )}
          <Button type={embedded ? 'button' : 'submit'} loading={busy} onClick={embedded ? () => void submit() : undefined}>
            {mode === 'create' ? t('form.create') : t('form.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );

  return (
    <Stack gap="md">
      {embedded ? (
        // Inside another form: no <form> of its own (forms do not nest), and
        // Enter creates this element instead of submitting the outer form.
        <div
          role="group"
          aria-label={embedded}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
              e.preventDefault();
              e.stopPropagation();
              void submit();
            }
          }}
        >
          {body}
        </div>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            // A sub-form in a dialog is portalled out of the DOM, not out of
            // React: its submit must not reach the form around it.
            e.stopPropagation();
            void submit();
          }}
          aria-label={t('form.record_form')}
        >
          {body}
        </form>
      )}

      <Modal opened={conflict} onClose={() => setConflict(false)} title={t('form.conflict_title')} centered>
        <Text size="sm">{t('form.conflict_text')}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConflict(false)}>
            {t('form.keep_editing')}
          </Button>
          <Button onClick={() => void reload()}>{t('form.reload_record')}</Button>
        </Group>
      </Modal>

      {guardNavigation && <UnsavedChangesGuard dirty={form.dirty && !saving} />}
    </Stack>
  );
}

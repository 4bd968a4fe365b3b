import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { useRecordForm } from '../../../components/form/use-record-form';
import { notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, TableDefinition } from '../../../lib/table-definition';
import { type DocumentOwner, useUploadDocument } from '../api/documents';
import { serverDetail, toastError } from './table-errors';

/** The document fields the upload form asks for; the file comes last. */
const UPLOAD_FIELDS = ['document_name', 'documenttype_id', 'subdocumenttype_id', 'document_file'];
const FILE_FIELD = 'document_file';

export interface DocumentUploadModalProps {
  /** The document definition (its fields, rules and labels). */
  documentDef: TableDefinition;
  relationApi: string;
  owner: DocumentOwner;
  onClose: () => void;
}

/**
 * Uploads one PDF for the record of a documents tab: name (the file's name
 * unless typed), type and sub type from the document definition, the file
 * checked in the browser (type, size rule) and again by the server.
 */
export function DocumentUploadModal({ documentDef, relationApi, owner, onClose }: DocumentUploadModalProps) {
  const { t } = useTranslation();
  const upload = useUploadDocument();
  const attributes = useMemo<AttributeDefinition[]>(
    () =>
      UPLOAD_FIELDS.flatMap((name) => {
        const a = documentDef.attributes.find((x) => x.attribute === name);
        if (!a) return [];
        // The file is written by its upload, so the form lets the user pick it.
        if (name === FILE_FIELD) return [{ ...a, read_only: false, hidden_on_create: false, required: true }];
        return [a];
      }),
    [documentDef],
  );
  const form = useRecordForm(attributes, 'create');
  const [formError, setFormError] = useState<string | null>(null);
  // "Please correct the marked fields" goes once nothing is marked any more.
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;
  // A newly chosen file names the document unless the user named it already.
  const chosen = form.values[FILE_FIELD];
  const { setValue } = form;
  const named = Boolean(form.values.document_name);
  useEffect(() => {
    if (chosen instanceof File && !named) setValue('document_name', chosen.name.replace(/\.pdf$/i, ''));
    // Only a new file names the document; clearing the name keeps it empty.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chosen]);

  const submit = async () => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    const file = form.values[FILE_FIELD];
    if (!(file instanceof File)) {
      form.setServerErrors({ [FILE_FIELD]: t('documents.file_required') });
      return;
    }
    const { [FILE_FIELD]: _file, ...fields } = form.payload();
    try {
      await upload.mutateAsync({ relationApi, owner, fields, file });
      notifySuccess(t('documents.uploaded'));
      onClose();
    } catch (error) {
      // The server names the file "files".
      const message = applyFieldErrors(error, form, t('form.fix_errors'), { files: FILE_FIELD });
      setFormError(message ?? serverDetail(error));
      if (message === null) toastError(error);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('documents.upload_title')} size="lg" closeOnClickOutside={false}>
      <form
        noValidate
        aria-label={t('documents.upload_title')}
        onSubmit={(e) => {
          e.preventDefault();
          e.stopPropagation();
          void submit();
        }}
      >
        <Stack>
          <RecordForm form={form} columns={1} entity="document" />
          {shownError && (
            <Alert color="red" role="alert" variant="light">
              {shownError}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={upload.isPending}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={upload.isPending}>
              {t('documents.upload')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

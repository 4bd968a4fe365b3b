import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { useRecordForm } from '../../../components/form/use-record-form';
import { notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, TableDefinition } from '../../../lib/table-definition';
import { PdfUploadField, useNameFromFile, usePdfUploads } from '../../documents/components/pdf-uploads';
import { type DocumentOwner } from '../api/documents';
import { tableKeys } from '../api/keys';

/** The document fields the upload form asks for; the file is chosen below them (the shared PDF upload). */
const UPLOAD_FIELDS = ['document_name', 'documenttype_id', 'subdocumenttype_id'];

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
 * through the shared PDF upload (progress, the browser's checks of type and
 * size rule, the server's detail next to the file) and checked again by the
 * server.
 */
export function DocumentUploadModal({ documentDef, relationApi, owner, onClose }: DocumentUploadModalProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const uploads = usePdfUploads({ multiple: false });
  const [fileError, setFileError] = useState<string | null>(null);
  const attributes = useMemo<AttributeDefinition[]>(
    () => UPLOAD_FIELDS.flatMap((name) => documentDef.attributes.filter((x) => x.attribute === name)),
    [documentDef],
  );
  const form = useRecordForm(attributes, 'create');
  const [formError, setFormError] = useState<string | null>(null);
  // "Please correct the marked fields" goes once nothing is marked any more.
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;
  // A newly chosen file names the document unless the user named it already.
  const { setValue } = form;
  useNameFromFile(uploads.items[0]?.file, form.values.document_name, (v) => setValue('document_name', v));

  const submit = async () => {
    // The file and the fields are checked together, so one click names every gap.
    const fieldsValid = form.validate();
    const fileChosen = uploads.pending > 0;
    setFormError(fieldsValid ? null : t('form.fix_errors'));
    setFileError(fileChosen ? null : t('documents.file_required'));
    if (!fieldsValid || !fileChosen) return;
    const { failures } = await uploads.uploadAll({ ...form.payload(), [owner.field]: owner.id });
    if (failures.length === 0) {
      void client.invalidateQueries({ queryKey: tableKeys.lists(relationApi) });
      notifySuccess(t('documents.uploaded'));
      onClose();
      return;
    }
    // The server's detail stands next to the file; a field it names is marked too.
    if (applyFieldErrors(failures[0].error, form, t('form.fix_errors')) === t('form.fix_errors')) setFormError(t('form.fix_errors'));
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
          <PdfUploadField uploads={uploads} label={t('documents.upload_list.file')} error={fileError} />
          {shownError && (
            <Alert color="red" role="alert" variant="light">
              {shownError}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={uploads.busy}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={uploads.busy}>
              {t('documents.upload')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

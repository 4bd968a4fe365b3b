import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { useRecordForm } from '../../../components/form/use-record-form';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, RelationDefinition, TableDefinition } from '../../../lib/table-definition';
import { useLinkDocuments } from '../api/link-documents';
import { CONTRACT_DOCUMENTS, useContractDocuments } from '../api/list-documents';
import { NoTypeBadge } from '../../documents/components/no-type-badge';
import { PdfUploadField, useNameFromFile, usePdfUploads } from '../../documents/components/pdf-uploads';
import type { StepProps } from './basic-data-step';
import { StepActions } from './step-actions';

/** The document fields the upload asks for (the file is chosen below them, the shared PDF upload); then the document's role in the contract. */
const DOCUMENT_FIELDS = ['document_name', 'documenttype_id', 'subdocumenttype_id'];
const ROLE_FIELD = 'documentcontracttype_id';

/** The upload form's fields: the document's and the link's role, labelled `roleLabel`. */
export function uploadAttributes(documentDef: TableDefinition, link: RelationDefinition | undefined, roleLabel: string): AttributeDefinition[] {
  const fields = DOCUMENT_FIELDS.flatMap((name) => documentDef.attributes.filter((x) => x.attribute === name));
  const role = link?.attributes?.find((a) => a.attribute === ROLE_FIELD);
  return role ? [...fields, { ...role, attribute_i18n: roleLabel }] : fields;
}

/**
 * Step 3 (server step 7): the contract's documents. A PDF is uploaded
 * (POST /documents/uploadfiles) and linked to the contract with its type,
 * sub type and role (POST /contracts/step/7); the linked documents are listed.
 */
export function DocumentsStep({
  documentDef,
  contractDef,
  contract,
  onDirtyChange,
  onSaved,
  onBack,
  onCancel,
  last,
}: StepProps & { documentDef: TableDefinition; contractDef: TableDefinition }) {
  const { t } = useTranslation();
  const contractId = contract?.contract_id ?? 0;
  const link = contractDef.relations.find((r) => r.api === CONTRACT_DOCUMENTS);
  const attributes = useMemo(() => uploadAttributes(documentDef, link, t('contracts.document_role')), [documentDef, link, t]);
  const [generation, setGeneration] = useState(0);
  const [dirty, setDirty] = useState(false);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  return (
    <Stack gap="md">
      <LinkedDocuments contractId={contractId} />
      <UploadForm
        key={generation}
        contractId={contractId}
        attributes={attributes}
        onDirtyChange={setDirty}
        onLinked={() => {
          setDirty(false);
          setGeneration((n) => n + 1);
        }}
        onBack={onBack}
        onCancel={onCancel}
        onFinish={(go) => {
          if (contract) onSaved(contract, go);
        }}
        last={last}
      />
    </Stack>
  );
}

function LinkedDocuments({ contractId }: { contractId: number }) {
  const { t } = useTranslation();
  const documents = useContractDocuments(contractId);
  const rows = documents.data?.data.data ?? [];
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={3} size="h5" mb="sm">
        {t('contracts.documents_linked')}
      </Title>
      {documents.isPending ? (
        <Loader size="sm" aria-label={t('general.loading')} />
      ) : documents.isError ? (
        <Alert color="red">{errorMessage(documents.error)}</Alert>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('contracts.documents_none')}
        </Text>
      ) : (
        <Table fz="sm" verticalSpacing={6} aria-label={t('contracts.documents_linked')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('contracts.document_name')}</Table.Th>
              <Table.Th>{t('contracts.document_type')}</Table.Th>
              <Table.Th>{t('contracts.document_role')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={String(r.document_id)}>
                <Table.Td>{String(r.document_name ?? '')}</Table.Td>
                <Table.Td>{r.documenttype_id == null ? <NoTypeBadge /> : String(r.documenttype_id__label ?? '–')}</Table.Td>
                <Table.Td>{String(r.documentcontracttype_id__label ?? '–')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

interface UploadFormProps {
  contractId: number;
  attributes: AttributeDefinition[];
  onDirtyChange: (dirty: boolean) => void;
  onLinked: () => void;
  onBack?: () => void;
  onCancel?: () => void;
  /** Leaves the step (nothing left to upload). */
  onFinish: (go: boolean) => void;
  last: boolean;
}

/**
 * Uploads one PDF and links it. The form is optional: left blank (no file,
 * no field holding a value, a cleared one included) the primary button
 * just finishes; filled in, it is checked first and a missing or invalid
 * field or file is marked where it is, then it uploads, links and finishes.
 * Cancel leaves in either case.
 */
function UploadForm({ contractId, attributes, onDirtyChange, onLinked, onBack, onCancel, onFinish, last }: UploadFormProps) {
  const { t } = useTranslation();
  const form = useRecordForm(attributes, 'create');
  const documentFields = useMemo(() => attributes.filter((a) => a.attribute !== ROLE_FIELD), [attributes]);
  const roleFields = useMemo(() => attributes.filter((a) => a.attribute === ROLE_FIELD), [attributes]);
  const linkDocuments = useLinkDocuments();
  const uploads = usePdfUploads({ multiple: false });
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const { setValue } = form;
  useNameFromFile(uploads.items[0]?.file, form.values.document_name, (v) => setValue('document_name', v));
  const dirty = (form.dirty || uploads.items.length > 0) && !busy;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;

  const submit = async (go: boolean) => {
    setFormError(null);
    setFileError(null);
    // Nothing typed (or typed and cleared again) and no file chosen: the step has nothing to save.
    if (!form.dirty && uploads.items.length === 0) {
      onFinish(go);
      return;
    }
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    const done = uploads.items.find((i) => i.state === 'done')?.documentId ?? null;
    if (uploads.pending === 0 && done === null) {
      setFileError(t('documents.file_required'));
      return;
    }
    const { [ROLE_FIELD]: role, ...fields } = form.payload();
    setBusy(true);
    try {
      // Uploaded without an owner: the link below gives it its contract and role.
      let documentId = done;
      if (documentId === null) {
        const { ids, failures } = await uploads.uploadAll(fields);
        if (failures.length > 0) {
          // The server's detail stands next to the file; a field it names is marked too.
          if (applyFieldErrors(failures[0].error, form, t('form.fix_errors')) === t('form.fix_errors')) setFormError(t('form.fix_errors'));
          return;
        }
        documentId = ids[0];
      }
      await linkDocuments.mutateAsync({
        contract_id: contractId,
        documentsobjects: [
          {
            document_id: documentId,
            documenttype_id: (fields.documenttype_id as number | null) ?? null,
            subdocumenttype_id: (fields.subdocumenttype_id as number | null) ?? null,
            documentcontracttype_id: (role as number | null) ?? null,
          },
        ],
      });
      form.markSaved();
      notifySuccess(t('contracts.document_linked'));
      onLinked();
      if (go) onFinish(true);
    } catch (error) {
      const message = applyFieldErrors(error, form, t('form.fix_errors'));
      setFormError(message ?? errorMessage(error));
      if (message === null) notifyError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('contracts.document_upload')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(true);
      }}
    >
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm">
          <Title order={3} size="h5">
            {t('contracts.document_upload')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('contracts.document_hint')}
          </Text>
        </Group>
        <Stack gap="md">
          {/* The document's fields take their choices from the document, the role from its own list. */}
          <RecordForm form={{ ...form, attributes: documentFields }} columns={2} entity="document" />
          <PdfUploadField uploads={uploads} label={t('documents.upload_list.file')} error={fileError} disabled={busy} />
          <RecordForm form={{ ...form, attributes: roleFields }} columns={2} />
          <Group justify="flex-end">
            <Button variant="light" leftSection={<IconUpload size={16} />} loading={busy} onClick={() => void submit(false)}>
              {t('contracts.document_upload_link')}
            </Button>
          </Group>
          {shownError && (
            <Alert color="red" role="alert" variant="light">
              {shownError}
            </Alert>
          )}
        </Stack>
      </Paper>
      <StepActions onBack={onBack} onCancel={onCancel} last={last} busy={busy} />
    </form>
  );
}

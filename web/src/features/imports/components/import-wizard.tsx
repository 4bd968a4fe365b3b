import { Alert, Badge, Button, FileInput, Group, Paper, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../../lib/ability-context';
import { errorMessage } from '../../../lib/api-client';
import { downloadTemplate, useCommitImport, useImport, useUndoImport, useUploadImport, useValidateImport } from '../api/imports';
import { chosenTwice, mappingToSend, missingRequired, percentDone } from '../model/mapping';
import type { UploadAnswer, ValidateAnswer } from '../model/types';

/** The row errors shown; the rest are counted. */
const SHOWN_ERRORS = 200;

/**
 * The import of one spreadsheet into `entity`: upload, map the columns
 * (suggested by the server), validate with the errors per row, commit
 * (with a progress bar while a large import runs) and undo.
 */
export function ImportWizard({ entity, parentId, onCommitted }: { entity: string; parentId?: number; onCommitted?: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<UploadAnswer | null>(null);
  const [choice, setChoice] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ValidateAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [committing, setCommitting] = useState(false);
  const uploadCall = useUploadImport();
  const validateCall = useValidateImport();
  const commitCall = useCommitImport();
  const undoCall = useUndoImport();
  // Undoing removes the imported rows: the server asks for remove on them.
  const canUndo = useAbility().can('remove', entity);
  const current = useImport(upload?.import_id ?? null, committing);
  const record = current.data ?? commitCall.data;

  const start = async () => {
    if (!file) return;
    setError(null);
    setResult(null);
    setCommitting(false);
    commitCall.reset();
    try {
      const answer = await uploadCall.mutateAsync({ entity, file, parentId });
      setUpload(answer);
      setChoice(Object.fromEntries(answer.columns.filter(Boolean).map((c) => [c, answer.suggested_mapping[c] ?? ''])));
    } catch (e) {
      setUpload(null);
      setError(errorMessage(e));
    }
  };
  const validate = async () => {
    if (!upload) return;
    setError(null);
    try {
      setResult(await validateCall.mutateAsync({ id: upload.import_id, mapping: mappingToSend(choice) }));
    } catch (e) {
      setResult(null);
      setError(errorMessage(e));
    }
  };
  const commit = async () => {
    if (!upload) return;
    setError(null);
    try {
      await commitCall.mutateAsync(upload.import_id);
      setCommitting(true);
      onCommitted?.();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const undo = async () => {
    if (!upload) return;
    setError(null);
    try {
      await undoCall.mutateAsync(upload.import_id);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const fieldOptions = [{ value: '', label: t('import.not_imported') }, ...(upload?.fields ?? []).map((f) => ({ value: f.name, label: f.label }))];
  const missing = upload ? missingRequired(upload.fields, choice) : [];
  const twice = chosenTwice(choice);
  const committed = record?.state === 'committed';
  const running = record?.state === 'committing' || !!record?.progress;
  // The commit job ended without writing: a row refused since the
  // validation (the report), or a failure (commit_error).
  const refused = committing && record?.state === 'invalid' ? (record.report ?? []) : null;
  const failed = committing && record?.state === 'valid' ? record.commit_error : undefined;

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Group align="flex-end">
          <FileInput
            label={t('import.file')}
            placeholder={t('import.choose_file')}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={setFile}
            style={{ flex: 1 }}
          />
          <Button leftSection={<IconUpload size={16} />} onClick={start} disabled={!file} loading={uploadCall.isPending}>
            {t('import.upload')}
          </Button>
          <Button
            variant="subtle"
            leftSection={<IconDownload size={16} />}
            onClick={() => downloadTemplate(entity).catch((e: unknown) => setError(errorMessage(e)))}
          >
            {t('import.template')}
          </Button>
        </Group>
      </Paper>

      {error && (
        <Alert color="red" icon={<IconAlertTriangle size={16} />} role="alert">
          {error}
        </Alert>
      )}

      {upload && (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={4}>{t('import.mapping_title', { count: upload.rows })}</Title>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import.column')}</Table.Th>
                  <Table.Th>{t('import.example')}</Table.Th>
                  <Table.Th>{t('import.field')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {upload.columns.map((column, i) =>
                  column ? (
                    <Table.Tr key={column}>
                      <Table.Td>{column}</Table.Td>
                      <Table.Td>{upload.preview[0]?.[i] ?? ''}</Table.Td>
                      <Table.Td>
                        <Select
                          aria-label={t('import.field_for', { column })}
                          data={fieldOptions}
                          value={choice[column] ?? ''}
                          onChange={(v) => {
                            setChoice((c) => ({ ...c, [column]: v ?? '' }));
                            setResult(null);
                          }}
                          allowDeselect={false}
                          disabled={committed || running}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ) : null,
                )}
              </Table.Tbody>
            </Table>
            {missing.length > 0 && (
              <Text c="orange" size="sm">
                {t('import.missing_required', { fields: missing.map((f) => f.label).join(', ') })}
              </Text>
            )}
            <Group>
              <Button onClick={validate} loading={validateCall.isPending} disabled={twice.length > 0 || committed || running}>
                {t('import.validate')}
              </Button>
              <Button
                color="green"
                onClick={commit}
                loading={commitCall.isPending}
                disabled={!result || result.invalid > 0 || committed || running}
              >
                {t('import.commit', { count: result?.valid ?? 0 })}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {result && !committed && (
        <Paper withBorder p="md">
          <Group gap="sm" mb="sm">
            <Badge color="green">{t('import.valid_rows', { count: result.valid })}</Badge>
            {result.invalid > 0 && <Badge color="red">{t('import.invalid_rows', { count: result.invalid })}</Badge>}
          </Group>
          {result.errors.length > 0 && (
            <Table striped aria-label={t('import.errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import.row')}</Table.Th>
                  <Table.Th>{t('import.column')}</Table.Th>
                  <Table.Th>{t('import.problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                  <Table.Tr key={`${e.row}-${i}`}>
                    <Table.Td>{e.row}</Table.Td>
                    <Table.Td>{e.column ?? String(e.loc[e.loc.length - 1])}</Table.Td>
                    <Table.Td>{e.msg}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {result.error_count > SHOWN_ERRORS && <Text size="sm">{t('import.more_errors', { count: result.error_count - SHOWN_ERRORS })}</Text>}
        </Paper>
      )}

      {running && record?.progress && (
        <Paper withBorder p="md">
          <Text size="sm" mb="xs">
            {t('import.progress', { done: record.progress.done, total: record.progress.total })}
          </Text>
          <Progress value={percentDone(record.progress)} aria-label={t('import.progress_label')} animated />
        </Paper>
      )}

      {refused && (
        <Paper withBorder p="md">
          <Alert color="red" icon={<IconAlertTriangle size={16} />} role="alert" mb="sm">
            {t('import.commit_refused', { count: record?.error_count ?? refused.length })}
          </Alert>
          <Table striped aria-label={t('import.errors')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('import.row')}</Table.Th>
                <Table.Th>{t('import.column')}</Table.Th>
                <Table.Th>{t('import.problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {refused.slice(0, SHOWN_ERRORS).map((e, i) => (
                <Table.Tr key={`${e.row}-${i}`}>
                  <Table.Td>{e.row}</Table.Td>
                  <Table.Td>{e.column ?? String(e.loc[e.loc.length - 1])}</Table.Td>
                  <Table.Td>{e.msg}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {failed && (
        <Alert color="red" icon={<IconAlertTriangle size={16} />} role="alert">
          {failed}
        </Alert>
      )}

      {committed && record && (
        <Alert color="green" icon={<IconCheck size={16} />}>
          <Group justify="space-between">
            <Text>{t('import.committed', { count: record.created })}</Text>
            {canUndo && (
              <Button variant="light" color="red" onClick={undo} loading={undoCall.isPending}>
                {t('import.undo')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {record?.state === 'undone' && <Alert color="gray">{t('import.undone')}</Alert>}
    </Stack>
  );
}

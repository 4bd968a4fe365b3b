import { Alert, Badge, Button, FileInput, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDownload, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../../lib/ability-context';
import { errorMessage } from '../../../lib/api-client';
import { downloadContractTemplate, useCommitContractWorkbook, useValidateContractWorkbook } from '../api/contract-workbook';
import { useUndoImport } from '../api/imports';
import { CONTRACT_PARTS, type ContractAnswer } from '../model/types';

/** The row errors shown; the rest are counted. */
const SHOWN_ERRORS = 200;

/**
 * /app/import-contract: contracts with their areas, deadlines and
 * recurring payments from one workbook (a sheet per part, joined by the
 * contract key). The file is checked first; it is imported as a whole
 * when no row has an error.
 */
export default function ContractImportPage() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<ContractAnswer | null>(null);
  const [done, setDone] = useState<ContractAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const check = useValidateContractWorkbook();
  const commit = useCommitContractWorkbook();
  const undoCall = useUndoImport();
  // Undoing removes the imported contracts, deadlines and payments.
  const ability = useAbility();
  const canUndo = ['contract', 'contractaction', 'recurringpayment'].every((e) => ability.can('remove', e));
  const [undone, setUndone] = useState(false);

  const choose = (f: File | null) => {
    setFile(f);
    setChecked(null);
    setDone(null);
    setUndone(false);
    setError(null);
  };
  const runCheck = async () => {
    if (!file) return;
    setError(null);
    setDone(null);
    try {
      setChecked(await check.mutateAsync(file));
    } catch (e) {
      setChecked(null);
      setError(errorMessage(e));
    }
  };
  const runImport = async () => {
    if (!file) return;
    setError(null);
    try {
      setDone(await commit.mutateAsync(file));
      setUndone(false);
      setChecked(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  /** Removes what the import created, while nobody changed it (409 otherwise, in the server's words). */
  const undo = async () => {
    if (!done?.import_id) return;
    setError(null);
    try {
      await undoCall.mutateAsync(done.import_id);
      setUndone(true);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const shown = done ?? checked;

  return (
    <Stack gap="md">
      <Title order={2}>{t('screen.import_contract')}</Title>
      <Text size="sm" c="dimmed">
        {t('import_contract.intro')}
      </Text>
      <Paper withBorder p="md">
        <Group align="flex-end">
          <FileInput
            label={t('import.file')}
            placeholder={t('import.choose_file')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={choose}
            style={{ flex: 1 }}
          />
          <Button leftSection={<IconUpload size={16} />} onClick={runCheck} disabled={!file} loading={check.isPending}>
            {t('import_contract.check')}
          </Button>
          <Button
            variant="subtle"
            leftSection={<IconDownload size={16} />}
            onClick={() => downloadContractTemplate().catch((e: unknown) => setError(errorMessage(e)))}
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

      {shown && (
        <Paper withBorder p="md">
          <Group gap="sm" mb="sm">
            {CONTRACT_PARTS.filter((p) => shown.rows[p] !== undefined).map((p) => (
              <Badge key={p} color={(shown.valid[p] ?? 0) === shown.rows[p] ? 'green' : 'orange'} variant="light">
                {t(`import_contract.part_${p}`, { valid: shown.valid[p] ?? 0, rows: shown.rows[p] })}
              </Badge>
            ))}
          </Group>
          {done && !undone && (
            <Stack gap="xs">
              <Alert color="green" icon={<IconCheck size={16} />}>
                {t('import_contract.done', { count: Object.keys(done.contracts ?? {}).length })}
              </Alert>
              {done.import_id !== undefined && canUndo && (
                <Group>
                  <Text size="sm" c="dimmed">
                    {t('import_contract.undo_hint', { id: done.import_id })}
                  </Text>
                  <Button variant="light" color="red" onClick={undo} loading={undoCall.isPending}>
                    {t('import.undo')}
                  </Button>
                </Group>
              )}
            </Stack>
          )}
          {done && undone && <Alert color="gray">{t('import.undone')}</Alert>}
          {checked && checked.errors.length === 0 && (
            <Group>
              <Text size="sm">{t('import_contract.ready')}</Text>
              <Button color="green" onClick={runImport} loading={commit.isPending}>
                {t('import_contract.import')}
              </Button>
            </Group>
          )}
          {checked && checked.errors.length > 0 && (
            <Table striped aria-label={t('import.errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import_contract.sheet')}</Table.Th>
                  <Table.Th>{t('import.row')}</Table.Th>
                  <Table.Th>{t('import.column')}</Table.Th>
                  <Table.Th>{t('import.problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {checked.errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                  <Table.Tr key={`${e.sheet}-${e.row}-${i}`}>
                    <Table.Td>{e.sheet}</Table.Td>
                    <Table.Td>{e.row}</Table.Td>
                    <Table.Td>{e.column || String(e.loc[e.loc.length - 1])}</Table.Td>
                    <Table.Td>{e.msg}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
    </Stack>
  );
}

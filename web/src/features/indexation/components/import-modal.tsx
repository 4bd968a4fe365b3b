import { Alert, Badge, Button, FileInput, Group, List, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconFileUpload, IconUpload } from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { indexKeys, uploadIndexFile } from '../api/indexation';
import { failureDetail } from '../model/logic';
import type { ImportSummary } from '../model/types';

/** The skipped months shown; the rest are counted. */
const SHOWN_SKIPPED = 8;

/** Import of an index file into series `id`: choose or drop a file, upload with progress, then the summary or the refusal. */
export function ImportModal({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = progress !== null && summary === null && error === null;

  const reset = () => {
    setFile(null);
    setProgress(null);
    setSummary(null);
    setError(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const choose = (f: File | null) => {
    setFile(f);
    setSummary(null);
    setError(null);
    setProgress(null);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) choose(dropped);
  };
  const start = async () => {
    if (!file) return;
    setSummary(null);
    setError(null);
    setProgress(0);
    try {
      const answer = await uploadIndexFile(id, file, setProgress);
      setSummary(answer);
      await client.invalidateQueries({ queryKey: indexKeys.values(id) });
    } catch (e) {
      setError(failureDetail(e) ?? t('indexation.import_failed'));
    }
  };
  const skipped = summary?.skipped ?? [];

  return (
    <Modal opened={opened} onClose={close} title={t('indexation.import_title')} size="lg" centered>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('indexation.import_help')}
        </Text>
        <Paper
          withBorder
          p="lg"
          radius="md"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          style={{ borderStyle: 'dashed', background: dragging ? 'var(--mantine-color-blue-light)' : undefined }}
          data-testid="index-dropzone"
        >
          <Stack align="center" gap="xs">
            <IconFileUpload size={32} stroke={1.5} color="var(--mantine-color-dimmed)" />
            <Text size="sm">{t('indexation.drop_here')}</Text>
            <FileInput
              w="100%"
              maw={420}
              label={t('indexation.file')}
              placeholder={t('indexation.choose_file')}
              accept=".csv,.txt,text/csv,text/plain"
              value={file}
              onChange={choose}
              clearable
              disabled={busy}
            />
          </Stack>
        </Paper>
        {progress !== null && (
          <Progress
            value={Math.round(progress * 100)}
            animated={busy}
            color={error ? 'red' : summary ? 'green' : undefined}
            aria-label={t('indexation.upload_progress')}
          />
        )}
        {summary && (
          <Alert color="green" icon={<IconCheck size={18} />} title={t('indexation.import_done')} data-testid="import-summary">
            <Group gap="xs" mb={skipped.length ? 'xs' : 0}>
              <Badge color="green" variant="light">{t('indexation.inserted', { count: summary.inserted })}</Badge>
              <Badge color="blue" variant="light">{t('indexation.updated', { count: summary.updated })}</Badge>
              <Badge color="gray" variant="light">{t('indexation.unchanged', { count: summary.unchanged })}</Badge>
              <Badge color="yellow" variant="light">{t('indexation.skipped', { count: skipped.length })}</Badge>
            </Group>
            {skipped.length > 0 && (
              <List size="xs" spacing={2}>
                {skipped.slice(0, SHOWN_SKIPPED).map((s) => (
                  <List.Item key={`${s.line}-${s.month}`}>
                    {t('indexation.skipped_line', { line: s.line, month: s.month, reason: s.reason })}
                  </List.Item>
                ))}
                {skipped.length > SHOWN_SKIPPED && (
                  <List.Item>{t('indexation.skipped_more', { count: skipped.length - SHOWN_SKIPPED })}</List.Item>
                )}
              </List>
            )}
          </Alert>
        )}
        {error && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('indexation.import_refused')} data-testid="import-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {summary ? t('indexation.close') : t('form.cancel')}
          </Button>
          <Button leftSection={<IconUpload size={16} />} onClick={start} disabled={!file} loading={busy}>
            {t('indexation.upload')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

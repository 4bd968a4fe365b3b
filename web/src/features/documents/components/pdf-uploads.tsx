/**
 * The one upload of PDFs in the app (documents tab, contract step 7, the
 * mail modal's new attachments, the ticket drawer): the spec's rules
 * (section 5: only .pdf, one file per upload, size rule 100000 KB, a
 * selection de-duplicated by name and size), a progress bar per file and
 * the server's detail next to a file that failed while the others are
 * still uploaded. `usePdfUploads` keeps the list and uploads it;
 * `PdfUploadField` shows it.
 */
import { ActionIcon, Alert, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCheck, IconFileTypePdf, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api-client';
import { MAX_DOCUMENT_KB, uploadPdf } from '../api/upload-pdf';

/** waiting: chosen, not sent yet; refused: fails the browser's check (never sent). */
export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed' | 'refused';

export interface UploadItem {
  /** Name and size: the identity of a file in a selection. */
  key: string;
  file: File;
  /** The part sent, 0..1. */
  progress: number;
  state: UploadState;
  /** The server's detail (failed) or the browser's refusal (refused). */
  error: string | null;
  documentId: number | null;
}

export interface UploadResult {
  /** The documents made by this call, in the list's order. */
  ids: number[];
  /** The files that failed, with the server's error (for field errors). */
  failures: { file: File; error: unknown }[];
}

export type UploadFields = Record<string, unknown> | ((file: File) => Record<string, unknown>);

export interface PdfUploads {
  items: UploadItem[];
  /** Files left out of the last selection (duplicates). */
  notice: string | null;
  multiple: boolean;
  busy: boolean;
  /** Files still to upload (waiting or failed). */
  pending: number;
  add: (files: File[]) => void;
  remove: (key: string) => void;
  clear: () => void;
  /** Uploads every waiting or failed file, one request each, in order; a failure does not stop the others. */
  uploadAll: (fields: UploadFields) => Promise<UploadResult>;
}

export const fileKey = (f: File) => `${f.name}\u0000${f.size}`;

function isPdfName(name: string) {
  return /\.pdf$/i.test(name);
}

export interface UsePdfUploadsOptions {
  /** Several files (each its own upload); otherwise a new choice replaces the file. */
  multiple?: boolean;
  /** The upload of one file (tests and callers may replace it). */
  upload?: typeof uploadPdf;
}

export function usePdfUploads({ multiple = true, upload = uploadPdf }: UsePdfUploadsOptions = {}): PdfUploads {
  const { t } = useTranslation();
  const [items, setItemsState] = useState<UploadItem[]>([]);
  const current = useRef<UploadItem[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setItems = useCallback((next: (prev: UploadItem[]) => UploadItem[]) => {
    current.current = next(current.current);
    setItemsState(current.current);
  }, []);
  const patch = useCallback(
    (key: string, change: Partial<UploadItem>) => setItems((prev) => prev.map((i) => (i.key === key ? { ...i, ...change } : i))),
    [setItems],
  );

  const add = useCallback(
    (files: File[]) => {
      const chosen = multiple ? files : files.slice(0, 1);
      const known = new Set(multiple ? current.current.map((i) => i.key) : []);
      const added: UploadItem[] = [];
      const duplicates: string[] = [];
      for (const file of chosen) {
        const key = fileKey(file);
        if (known.has(key) || (!multiple && current.current.some((i) => i.key === key))) {
          duplicates.push(file.name);
          continue;
        }
        known.add(key);
        let error: string | null = null;
        if (!isPdfName(file.name)) error = t('documents.upload_list.not_pdf', { name: file.name });
        else if (file.size === 0) error = t('documents.upload_list.empty', { name: file.name });
        else if (file.size > MAX_DOCUMENT_KB * 1024) error = t('documents.upload_list.too_large', { name: file.name, size: MAX_DOCUMENT_KB });
        added.push({ key, file, progress: 0, state: error ? 'refused' : 'waiting', error, documentId: null });
      }
      setNotice(duplicates.length > 0 ? t('documents.upload_list.duplicate', { names: duplicates.join(', '), count: duplicates.length }) : null);
      if (added.length === 0) return;
      setItems((prev) => (multiple ? [...prev, ...added] : added));
    },
    [multiple, setItems, t],
  );

  const remove = useCallback((key: string) => setItems((prev) => prev.filter((i) => i.key !== key || i.state === 'uploading')), [setItems]);
  const clear = useCallback(() => {
    setItems(() => []);
    setNotice(null);
  }, [setItems]);

  const uploadAll = useCallback(
    async (fields: UploadFields): Promise<UploadResult> => {
      const result: UploadResult = { ids: [], failures: [] };
      setBusy(true);
      try {
        for (const item of current.current.filter((i) => i.state === 'waiting' || i.state === 'failed')) {
          patch(item.key, { state: 'uploading', progress: 0, error: null });
          try {
            const values = typeof fields === 'function' ? fields(item.file) : fields;
            const id = await upload(values, item.file, (part) => patch(item.key, { progress: part }));
            patch(item.key, { state: 'done', progress: 1, documentId: id });
            result.ids.push(id);
          } catch (error) {
            patch(item.key, { state: 'failed', error: errorMessage(error) });
            result.failures.push({ file: item.file, error });
          }
        }
      } finally {
        setBusy(false);
      }
      return result;
    },
    [patch, upload],
  );

  const pending = items.filter((i) => i.state === 'waiting' || i.state === 'failed').length;
  return { items, notice, multiple, busy, pending, add, remove, clear, uploadAll };
}

function sizeLabel(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export interface PdfUploadFieldProps {
  uploads: PdfUploads;
  label: string;
  /** An error of the field as a whole (no file chosen). */
  error?: string | null;
  disabled?: boolean;
}

/** The file choice and the list of chosen files, each with its progress and its error. */
export function PdfUploadField({ uploads, label, error, disabled }: PdfUploadFieldProps) {
  const { t } = useTranslation();
  const { items, notice, multiple, busy } = uploads;
  return (
    <Stack gap={6} data-testid="pdf-upload">
      <Group gap="sm" align="center">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <FileButton onChange={(f) => uploads.add(f ? (Array.isArray(f) ? f : [f]) : [])} accept="application/pdf,.pdf" multiple={multiple} disabled={disabled || busy}>
          {(props) => (
            <Button {...props} size="xs" variant="default" leftSection={<IconFileTypePdf size={14} />} disabled={disabled || busy}>
              {multiple ? t('documents.upload_list.choose_files') : t('documents.upload_list.choose_file')}
            </Button>
          )}
        </FileButton>
      </Group>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      {notice && (
        <Alert color="yellow" variant="light" p="xs" data-testid="pdf-upload-notice">
          <Text size="xs">{notice}</Text>
        </Alert>
      )}
      {items.map((item) => (
        <Stack key={item.key} gap={2} data-testid="pdf-upload-item" data-state={item.state}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
              {item.file.name} <Text span size="xs" c="dimmed">{`(${sizeLabel(item.file.size)})`}</Text>
            </Text>
            <Group gap={4} wrap="nowrap">
              {item.state === 'done' && <IconCheck size={16} color="var(--mantine-color-green-7)" aria-label={t('documents.upload_list.done')} />}
              {item.state !== 'uploading' && item.state !== 'done' && (
                <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => uploads.remove(item.key)} disabled={busy} aria-label={t('documents.upload_list.remove', { name: item.file.name })}>
                  <IconX size={14} />
                </ActionIcon>
              )}
            </Group>
          </Group>
          {item.state !== 'refused' && (
            <Progress
              value={Math.round(item.progress * 100)}
              size="sm"
              color={item.state === 'failed' ? 'red' : item.state === 'done' ? 'green' : undefined}
              animated={item.state === 'uploading'}
              aria-label={t('documents.upload_list.progress', { name: item.file.name })}
            />
          )}
          {item.error && (
            <Text size="xs" c="red" role="alert" data-testid="pdf-upload-error">
              {item.error}
            </Text>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * A newly chosen file names the document (its name without ".pdf") unless
 * the user typed a name: a name taken from an earlier file follows the new one.
 */
export function useNameFromFile(file: File | undefined, name: unknown, setName: (value: string) => void) {
  const taken = useRef<string | null>(null);
  useEffect(() => {
    if (!file) return;
    const current = typeof name === 'string' ? name : '';
    if (current && current !== taken.current) return;
    taken.current = file.name.replace(/\.pdf$/i, '');
    setName(taken.current);
    // Only a new file names the document; clearing the name keeps it empty.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file]);
}

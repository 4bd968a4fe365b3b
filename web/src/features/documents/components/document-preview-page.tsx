/**
 * /app/preview/document/{document_id}/{name}: the document with pdf.js
 * (pages, zoom, search in the text), the original or the stamped copy
 * (only the original while the document has no type, decision 0065), and
 * a download button. The file is read through a link token
 * (GET /documents/links/{id}); no access token goes into a URL.
 */
import { Alert, Button, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDocumentLinks } from '../api/get-document-links';
import { NoTypeBadge } from './no-type-badge';

const PdfViewer = lazy(() => import('./pdf-viewer').then((m) => ({ default: m.PdfViewer })));

export default function DocumentPreviewPage() {
  const { t } = useTranslation();
  const { document_id: id = '', name = '' } = useParams();
  const links = useDocumentLinks(id);
  const [copy, setCopy] = useState<'original' | 'stamped'>('original');
  // The viewer keeps the URL it opened: a refreshed token must not reload the document.
  const [opened, setOpened] = useState<Record<string, string>>({});

  if (links.isPending) return <Loader aria-label={t('documents.preview.loading')} />;
  if (links.isError || !links.data) {
    return (
      <Alert color="red" title={t('screen.document_preview')}>
        {t('documents.preview.failed')}
      </Alert>
    );
  }
  const typed = links.data.documenttype_id !== null;
  const shown = typed ? copy : 'original';
  const fresh = shown === 'stamped' ? links.data.preview_stamp : links.data.preview;
  const src = opened[shown] ?? fresh;
  if (!opened[shown]) setOpened((o) => ({ ...o, [shown]: fresh }));
  const download = shown === 'stamped' ? links.data.download_stamp : links.data.download;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>{decodeURIComponent(name) || t('screen.document_preview')}</Title>
        <Group>
          {typed ? (
            <SegmentedControl
              value={copy}
              onChange={(v) => setCopy(v === 'stamped' ? 'stamped' : 'original')}
              data={[
                { value: 'original', label: t('documents.preview.original') },
                { value: 'stamped', label: t('documents.preview.stamped') },
              ]}
            />
          ) : (
            <Group gap={6} wrap="nowrap">
              <NoTypeBadge />
              <Text size="sm" c="dimmed">
                {t('documents.no_type_hint')}
              </Text>
            </Group>
          )}
          <Button component="a" href={download} download>
            {t('documents.preview.download')}
          </Button>
        </Group>
      </Group>
      <Suspense fallback={<Loader aria-label={t('documents.preview.loading')} />}>
        <PdfViewer key={src} url={src} />
      </Suspense>
    </Stack>
  );
}

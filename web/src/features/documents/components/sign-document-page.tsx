/**
 * /app/sign-document/{id}/ticket/{ticket_id}: the user draws a signature,
 * sees it placed on the first page (bottom right, where the signed copy
 * puts it) and confirms; POST /documents/{id}/sign stores it with the
 * SHA-256 of the document as shown, so a document changed meanwhile is
 * refused (409). The signed copy then opens in the preview.
 */
import { Alert, Anchor, Box, Button, Card, Grid, Group, Image, Loader, Stack, Text, Title } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ticketKeys } from '../../tickets/api/keys';
import { useDocumentLinks } from '../api/get-document-links';
import { recordDocumentsKey, useRecordDocuments } from '../api/record-documents';
import { type Signed, signDocument } from '../api/sign-document';
import { SignaturePad } from './signature-pad';
import { previewPath } from './ticket-documents';

const PdfViewer = lazy(() => import('./pdf-viewer').then((m) => ({ default: m.PdfViewer })));

export default function SignDocumentPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { id = '', ticket_id: ticketParam = '' } = useParams();
  const documentId = Number(id);
  const ticketId = Number(ticketParam);
  const docs = useRecordDocuments('ticket_id', ticketId > 0 ? ticketId : null);
  const links = useDocumentLinks(id);
  const [src, setSrc] = useState<string | null>(null);
  const [signature, setSignature] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [signed, setSigned] = useState<Signed | null>(null);
  const doc = docs.data?.find((d) => d.document_id === documentId);

  if (docs.isPending || links.isPending) return <Loader aria-label={t('documents.preview.loading')} />;
  if (!doc || !links.data || doc.document_mime_type !== 'application/pdf') {
    return (
      <Alert color="red" title={t('screen.sign_document')}>
        {t('documents.sign.not_found')}
      </Alert>
    );
  }
  // The server signs only a document with a type (decision 0065).
  if (doc.documenttype_id === null) {
    return (
      <Alert color="yellow" title={t('screen.sign_document')}>
        {t('documents.no_type_hint')}
      </Alert>
    );
  }
  const url = src ?? links.data.preview;
  if (src === null) setSrc(links.data.preview);

  const sign = async () => {
    if (!signature || !doc.document_sha256) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await signDocument(documentId, { ticket_id: ticketId, signature, sha256: doc.document_sha256 });
      setSigned(answer);
      notifySuccess(t('documents.sign.done'));
      void qc.invalidateQueries({ queryKey: recordDocumentsKey('ticket_id', ticketId) });
      void qc.invalidateQueries({ queryKey: ticketKeys.history(ticketId) });
    } catch (error) {
      const message = errorMessage(error);
      setFailure(message);
      notifyError(message);
    } finally {
      setBusy(false);
    }
  };

  // Where pdfmark.Sign puts the image: bottom right, a quarter of the page wide.
  const overlay = signature ? (
    <Box pos="absolute" right="3%" bottom="7%" w="25%" style={{ outline: '2px dashed var(--mantine-color-blue-6)', pointerEvents: 'none' }} data-testid="signature-placed">
      <Image src={signature} alt={t('documents.sign.placed')} />
    </Box>
  ) : undefined;

  return (
    <Stack gap="md">
      <Title order={3}>
        {t('screen.sign_document')}: {doc.document_name}
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Card withBorder>
            <Stack gap="sm">
              {signed ? (
                <>
                  <Alert color="teal" title={t('documents.sign.done')}>
                    <Text size="sm">{t('documents.sign.digests', { original: signed.original_sha256.slice(0, 16), signed: signed.signed_sha256.slice(0, 16) })}</Text>
                  </Alert>
                  <Group>
                    <Button component={Link} to={previewPath(signed.document_id, `${doc.document_name} (${t('documents.sign.signed')})`)}>
                      {t('documents.sign.open_signed')}
                    </Button>
                    <Anchor component={Link} to="/app/table/board">
                      {t('documents.sign.back')}
                    </Anchor>
                  </Group>
                </>
              ) : (
                <>
                  <Text size="sm">{t('documents.sign.intro')}</Text>
                  <SignaturePad onChange={setSignature} />
                  {failure && (
                    <Alert color="red" role="alert" variant="light">
                      {failure}
                    </Alert>
                  )}
                  <Group justify="flex-end">
                    <Button leftSection={<IconSignature size={16} />} disabled={!signature || !doc.document_sha256} loading={busy} onClick={() => void sign()}>
                      {t('documents.sign.confirm')}
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Suspense fallback={<Loader aria-label={t('documents.preview.loading')} />}>
            <PdfViewer url={url} firstPageOverlay={overlay} height="calc(100vh - 260px)" />
          </Suspense>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

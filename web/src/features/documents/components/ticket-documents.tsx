import { ActionIcon, Anchor, Button, Group, Loader, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconEye, IconMail, IconSignature, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { dataProvider } from '../../../lib/data-provider';
import { notifySuccess } from '../../../lib/notify';
import { ticketKeys } from '../../tickets/api/keys';
import { recordDocumentsKey, useRecordDocuments } from '../api/record-documents';
import { MailModal } from './mail-modal';
import { NoTypeBadge } from './no-type-badge';
import { PdfUploadField, usePdfUploads } from './pdf-uploads';

/** The app's preview route of a document. */
export const previewPath = (id: number, name: string) => `/app/preview/document/${id}/${encodeURIComponent(name || String(id))}`;

/**
 * A ticket's documents with preview and sign links, and the button that
 * opens the mail modal for the ticket (attachments from these documents).
 */
export function TicketDocuments({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const ability = useAbility();
  const docs = useRecordDocuments('ticket_id', ticketId);
  const [composing, setComposing] = useState<number[] | null>(null);
  const canMail = ability.can('create', 'email');
  // Signing writes a signed copy (a new document); uploading also links it
  // to the ticket, which the server checks as a change of the ticket.
  const canSign = ability.can('create', 'document');
  const canUpload = canSign && ability.can('update', 'ticket');
  return (
    <Stack gap={6} data-testid="ticket-documents">
      {docs.isLoading && <Loader size="sm" aria-label={t('kanban.loading')} />}
      {docs.data && docs.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('documents.empty')}
        </Text>
      )}
      {(docs.data ?? []).map((d) => {
        const pdf = d.document_mime_type === 'application/pdf';
        const typed = d.documenttype_id !== null;
        return (
          <Group key={d.document_id} justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
                {pdf ? (
                  <Anchor component={Link} to={previewPath(d.document_id, d.document_name)}>
                    {d.document_name}
                  </Anchor>
                ) : (
                  d.document_name
                )}
              </Text>
              {!typed && <NoTypeBadge />}
            </Group>
            <Group gap={4} wrap="nowrap">
              {pdf && (
                <Tooltip label={t('documents.preview_action')}>
                  <ActionIcon variant="subtle" component={Link} to={previewPath(d.document_id, d.document_name)} aria-label={t('documents.preview_action_named', { name: d.document_name })}>
                    <IconEye size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
              {pdf && canSign && typed && (
                <Tooltip label={t('documents.sign_action')}>
                  <ActionIcon
                    variant="subtle"
                    component={Link}
                    to={`/app/sign-document/${d.document_id}/ticket/${ticketId}`}
                    aria-label={t('documents.sign_action_named', { name: d.document_name })}
                  >
                    <IconSignature size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
              {canMail && (
                <Tooltip label={t('mailbox.send_document')}>
                  <ActionIcon variant="subtle" onClick={() => setComposing([d.document_id])} aria-label={t('mailbox.send_document_named', { name: d.document_name })}>
                    <IconMail size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          </Group>
        );
      })}
      {canUpload && <TicketUpload ticketId={ticketId} />}
      {canMail && (
        <Group>
          <Button size="xs" variant="light" leftSection={<IconMail size={14} />} onClick={() => setComposing([])}>
            {t('mailbox.write')}
          </Button>
        </Group>
      )}
      {composing !== null && (
        <MailModal
          mode="compose"
          ticketId={ticketId}
          attach={composing}
          onClose={() => setComposing(null)}
          onSent={() => {
            void qc.invalidateQueries({ queryKey: ticketKeys.history(ticketId) });
            void qc.invalidateQueries({ queryKey: recordDocumentsKey('ticket_id', ticketId) });
          }}
        />
      )}
    </Stack>
  );
}

/**
 * New PDFs for a ticket from its drawer, through the shared upload (one
 * request per file, progress, de-duplicated, the server's detail next to a
 * file that failed); the uploaded ones join the ticket's documents.
 */
function TicketUpload({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const uploads = usePdfUploads({ multiple: true });
  const [docType, setDocType] = useState<string | null>(null);
  const types = useQuery({
    queryKey: ['mail', 'documenttypes'],
    queryFn: ({ signal }) => dataProvider.options('document', { field: 'documenttype_id', perPage: 100 }, signal),
    enabled: uploads.items.length > 0,
  });
  // The type may be given later (the document then shows "No type yet").
  const upload = async () => {
    const { ids, failures } = await uploads.uploadAll({ documenttype_id: docType, ticket_id: ticketId });
    if (ids.length > 0) {
      void qc.invalidateQueries({ queryKey: recordDocumentsKey('ticket_id', ticketId) });
      void qc.invalidateQueries({ queryKey: ticketKeys.history(ticketId) });
    }
    if (failures.length === 0) {
      notifySuccess(t('documents.upload_list.uploaded'));
      uploads.clear();
    }
  };
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="ticket-upload">
      <Stack gap={6}>
        <PdfUploadField uploads={uploads} label={t('documents.upload_list.upload')} />
        {uploads.pending > 0 && (
          <Group align="flex-end" gap="xs">
            <Select
              size="xs"
              label={t('documents.upload_list.type')}
              data={(types.data?.data ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
              value={docType}
              onChange={setDocType}
              placeholder={t('documents.no_type')}
              clearable
              searchable
              style={{ flex: 1 }}
            />
            <Button size="xs" leftSection={<IconUpload size={14} />} loading={uploads.busy} onClick={() => void upload()}>
              {t('documents.upload')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

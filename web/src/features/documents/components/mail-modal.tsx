import '@mantine/tiptap/styles.css';
import { Alert, Anchor, Badge, Button, Group, Modal, MultiSelect, Select, Stack, TagsInput, Text, TextInput, Typography } from '@mantine/core';
import { RichTextEditor, Link as TiptapLink, useRichTextEditorContext } from '@mantine/tiptap';
import { IconMailForward, IconSeparatorHorizontal } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api-client';
import { dataProvider } from '../../../lib/data-provider';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { recordDocumentsKey, useRecordDocuments } from '../api/record-documents';
import { isMailAddress, sendMail } from '../api/send-mail';
import { getDocumentLinks } from '../api/get-document-links';
import { PdfUploadField, usePdfUploads } from './pdf-uploads';

/** A stored mail as the view mode shows it. */
export interface MailView {
  email_id: number;
  email_received_datetime: string;
  email_from: string;
  email_to: string;
  email_cc: string | null;
  email_subject: string;
  /** Sanitized HTML (the server's allow-list). */
  email_body: string;
  attachments: { document_id: number; document_name: string; document_mime_type: string }[];
}

export type MailModalProps =
  | {
      mode: 'compose';
      /** The record the mail belongs to; its documents can be attached. */
      ticketId?: number;
      posId?: number;
      /** Preset recipients, subject and attachments. */
      to?: string[];
      subject?: string;
      attach?: number[];
      onClose: () => void;
      onSent?: (emailId: number) => void;
    }
  | {
      mode: 'view';
      mail: MailView;
      onClose: () => void;
      /** Offers "Reply" (to the sender of a received mail, to the recipients of a sent one): compose mode. */
      onReply?: (mail: MailView) => void;
    };

/** The Separator button of the spec: a horizontal rule at the cursor. */
function SeparatorControl() {
  const { editor } = useRichTextEditorContext();
  const { t } = useTranslation();
  return (
    <RichTextEditor.Control onClick={() => editor?.chain().focus().setHorizontalRule().run()} aria-label={t('mailbox.separator')} title={t('mailbox.separator')}>
      <IconSeparatorHorizontal stroke={1.5} size={16} />
      <Text size="xs" ml={4}>
        {t('mailbox.separator')}
      </Text>
    </RichTextEditor.Control>
  );
}

/** Addresses of contact persons for the recipient fields (spec: suggestions from contact persons). */
function useAddressSuggestions(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['mail', 'suggestions', term],
    queryFn: async ({ signal }) => {
      const answer = await dataProvider.list('contactdetails', { search: term, perPage: 20, columns: ['contactdetails_email'] }, signal);
      return [...new Set(answer.data.data.map((r) => String(r.contactdetails_email ?? '')).filter(isMailAddress))];
    },
    enabled: term.length >= 2,
    staleTime: 60_000,
    retry: false,
  });
}

/** A recipient tag field: only valid addresses become tags. */
function AddressInput({ label, value, onChange, error }: { label: string; value: string[]; onChange: (v: string[]) => void; error?: string | null }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const suggestions = useAddressSuggestions(search);
  return (
    <TagsInput
      label={label}
      value={value}
      searchValue={search}
      onSearchChange={(s) => {
        setSearch(s);
        // Typing again clears the refusal; the field emptying after a tag does not.
        if (s !== '') setRefused(null);
      }}
      data={(suggestions.data ?? []).filter((a) => !value.includes(a))}
      splitChars={[',', ';', ' ']}
      acceptValueOnBlur
      clearable
      onChange={(next) => {
        const bad = next.find((a) => !isMailAddress(a));
        if (bad !== undefined) setRefused(t('mailbox.invalid_address', { address: bad }));
        onChange(next.filter(isMailAddress).map((a) => a.trim()));
      }}
      error={refused ?? error}
    />
  );
}

function ComposeMail(props: Extract<MailModalProps, { mode: 'compose' }>) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const ownerField = props.ticketId ? 'ticket_id' : 'pos_id';
  const ownerId = props.ticketId ?? props.posId ?? null;
  const docs = useRecordDocuments(ownerField, ownerId);
  const [to, setTo] = useState<string[]>(props.to ?? []);
  const [cc, setCc] = useState<string[]>([]);
  const [subject, setSubject] = useState(props.subject ?? '');
  const [attach, setAttach] = useState<string[]>((props.attach ?? []).map(String));
  const uploads = usePdfUploads({ multiple: true });
  const files = uploads.items.filter((i) => i.state === 'waiting' || i.state === 'failed');
  const [docType, setDocType] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const types = useQuery({
    queryKey: ['mail', 'documenttypes'],
    queryFn: ({ signal }) => dataProvider.options('document', { field: 'documenttype_id', perPage: 100 }, signal),
    enabled: files.length > 0,
  });
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), TiptapLink],
    content: '',
    immediatelyRender: false,
  });

  const send = async () => {
    const errs: Record<string, string> = {};
    if (to.length === 0) errs.email_to = t('mailbox.to_required');
    if (!subject.trim()) errs.email_subject = t('mailbox.subject_required');
    setErrors(errs);
    setFailure(null);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    try {
      const ids = attach.map(Number);
      // New PDFs are uploaded to the record first (one request each, with
      // progress), then attached like the others; one that fails keeps its
      // error next to it and the mail waits.
      if (files.length > 0 && ownerId) {
        const result = await uploads.uploadAll({ documenttype_id: docType, [ownerField]: ownerId });
        void qc.invalidateQueries({ queryKey: recordDocumentsKey(ownerField, ownerId) });
        ids.push(...result.ids);
        setAttach(ids.map(String));
        if (result.failures.length > 0) {
          setFailure(t('documents.upload_list.failed_some', { count: result.failures.length }));
          return;
        }
        uploads.clear();
      }
      const body = editor && !editor.isEmpty ? editor.getHTML() : '';
      const answer = await sendMail({
        email_to: to,
        email_cc: cc,
        email_subject: subject.trim(),
        email_body: body,
        email_attachements: ids,
        ...(props.ticketId ? { ticket_id: props.ticketId } : {}),
        ...(props.posId && !props.ticketId ? { pos_id: props.posId } : {}),
      });
      notifySuccess(t('mailbox.sent'));
      props.onSent?.(answer.email_id);
      props.onClose();
    } catch (error) {
      // Spec section 8: a send failure shows the server's detail text.
      const message = errorMessage(error);
      setFailure(message);
      notifyError(message);
    } finally {
      setBusy(false);
    }
  };

  // A document without a type may be sent; the list says it has none.
  const docOptions = (docs.data ?? []).map((d) => ({
    value: String(d.document_id),
    label: d.documenttype_id === null ? `${d.document_name} (${t('documents.no_type')})` : d.document_name,
  }));
  return (
    <form
      noValidate
      aria-label={t('mailbox.compose')}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack gap="sm">
        <AddressInput label={t('mailbox.to')} value={to} onChange={setTo} error={errors.email_to} />
        <AddressInput label={t('mailbox.cc')} value={cc} onChange={setCc} />
        <TextInput label={t('mailbox.subject')} value={subject} onChange={(e) => setSubject(e.currentTarget.value)} error={errors.email_subject} maxLength={998} />
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('mailbox.body')}
          </Text>
          <RichTextEditor editor={editor} aria-label={t('mailbox.body')}>
            <RichTextEditor.Toolbar>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Bold />
                <RichTextEditor.Italic />
                <RichTextEditor.Underline />
                <RichTextEditor.Strikethrough />
                <RichTextEditor.ClearFormatting />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.H3 />
                <RichTextEditor.BulletList />
                <RichTextEditor.OrderedList />
                <RichTextEditor.Blockquote />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Link />
                <RichTextEditor.Unlink />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <SeparatorControl />
              </RichTextEditor.ControlsGroup>
            </RichTextEditor.Toolbar>
            <RichTextEditor.Content h={400} style={{ overflowY: 'auto' }} />
          </RichTextEditor>
        </div>
        <MultiSelect
          label={t('mailbox.attachments')}
          placeholder={docOptions.length === 0 ? t('mailbox.no_documents') : t('mailbox.choose_documents')}
          data={docOptions}
          value={attach}
          onChange={setAttach}
          searchable
          clearable
          disabled={docOptions.length === 0 && attach.length === 0}
        />
        {ownerId && (
          <Group grow align="flex-start">
            <PdfUploadField uploads={uploads} label={t('mailbox.new_pdfs')} disabled={busy} />
            {files.length > 0 && (
              <Select
                label={t('mailbox.new_pdfs_type')}
                data={(types.data?.data ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
                value={docType}
                onChange={setDocType}
                placeholder={t('documents.no_type')}
                clearable
                searchable
              />
            )}
          </Group>
        )}
        {failure && (
          <Alert color="red" role="alert" variant="light">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={busy}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('mailbox.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens an attachment through a fresh link (no access token in a URL). */
async function openAttachment(id: number, pdf: boolean) {
  try {
    const links = await getDocumentLinks(id);
    window.open(pdf ? links.preview : links.download, '_blank', 'noopener');
  } catch (error) {
    notifyError(errorMessage(error));
  }
}

/** A stored mail, read-only, with its attachments as links (view mode; the incoming-mail screen). */
export function MailBody({ mail }: { mail: MailView }) {
  const { t, i18n } = useTranslation();
  const row = (label: string, value: string | null) =>
    value ? (
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" c="dimmed" w={90} style={{ flexShrink: 0 }}>
          {label}
        </Text>
        <Text size="sm" style={{ wordBreak: 'break-word' }}>
          {value}
        </Text>
      </Group>
    ) : null;
  return (
    <Stack gap="xs">
      {row(t('mailbox.id'), `#${mail.email_id}`)}
      {row(t('mailbox.received'), formatDate(mail.email_received_datetime, i18n.language))}
      {row(t('mailbox.from'), mail.email_from)}
      {row(t('mailbox.to'), mail.email_to)}
      {row(t('mailbox.cc'), mail.email_cc)}
      {row(t('mailbox.subject'), mail.email_subject)}
      <Typography p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, maxHeight: 400, overflowY: 'auto' }}>
        {/* The body was sanitized by the server's allow-list before it was stored (decision 0018). */}
        <div data-testid="mail-body" dangerouslySetInnerHTML={{ __html: mail.email_body }} />
      </Typography>
      <Text size="sm" fw={500}>
        {t('mailbox.attachments')}
      </Text>
      {mail.attachments.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('mailbox.no_attachments')}
        </Text>
      )}
      <Group gap="xs">
        {mail.attachments.map((a) => (
          <Badge key={a.document_id} variant="light" size="lg" style={{ textTransform: 'none' }}>
            <Anchor size="sm" component="button" type="button" onClick={() => void openAttachment(a.document_id, a.document_mime_type === 'application/pdf')}>
              {a.document_name}
            </Anchor>
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/**
 * The mail modal of the spec: compose mode (recipient and cc tags, subject,
 * the rich editor with a Separator button, 400 px high, attachments from
 * the record's documents or new PDFs, send through POST /emails/send) and
 * view mode (a stored mail read-only with its attachments as links).
 */
export function MailModal(props: MailModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={props.onClose} title={props.mode === 'compose' ? t('mailbox.compose') : t('mailbox.view')} size="xl" closeOnClickOutside={false}>
      {props.mode === 'compose' ? (
        <ComposeMail {...props} />
      ) : (
        <Stack gap="md">
          <MailBody mail={props.mail} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('mailbox.close')}
            </Button>
            {props.onReply && (
              <Button onClick={() => props.onReply?.(props.mail)} leftSection={<IconMailForward size={16} />}>
                {t('mailbox.reply')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

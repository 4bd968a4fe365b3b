import { Alert, Badge, Button, Checkbox, Divider, Drawer, Group, Loader, NumberInput, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateFormatFor } from '../../../lib/dates';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAbility } from '../../../lib/ability-context';
import { commentTicket } from '../api/comment-ticket';
import { getTicket } from '../api/get-ticket';
import { ticketKeys } from '../api/keys';
import { useTicketHistory } from '../api/ticket-history';
import { type TicketChanges, updateTicket } from '../api/update-ticket';
import { BADGE_SHADE, deadlineColor, type Priority, type Ticket, upsertTicket } from '../model/board';
import { TicketDocuments } from '../../documents/components/ticket-documents';
import { TicketOptionSelect } from './ticket-option-select';
import { TicketTimeline } from './ticket-timeline';
import { DRAWER_LABELS } from './timeline-text';

export interface TicketDrawerProps {
  /** The ticket shown; null: closed. */
  ticketId: number | null;
  boardId: number;
  priorities: Priority[];
  onClose: () => void;
}

/** The editable fields of the drawer's form. */
interface Draft {
  ticket_name: string;
  ticket_description: string;
  priority_id: number | null;
  user_id: number | null;
  team_id: number | null;
  ticket_yellow_deadline: string | null;
  ticket_red_deadline: string | null;
  ticket_progress: number;
  ticket_closed: boolean;
}

function draftOf(t: Ticket): Draft {
  return {
    ticket_name: t.ticket_name,
    ticket_description: t.ticket_description ?? '',
    priority_id: t.priority_id,
    user_id: t.user_id,
    team_id: t.team_id,
    ticket_yellow_deadline: t.ticket_yellow_deadline,
    ticket_red_deadline: t.ticket_red_deadline,
    ticket_progress: Number(t.ticket_progress ?? 0),
    ticket_closed: Boolean(Number(t.ticket_closed)),
  };
}

/** The fields of draft that differ from the ticket, as PUT /tickets/update takes them. */
export function changesOf(ticket: Ticket, draft: Draft): TicketChanges {
  const base = draftOf(ticket);
  const out: TicketChanges = {};
  if (draft.ticket_name !== base.ticket_name) out.ticket_name = draft.ticket_name;
  if (draft.ticket_description !== base.ticket_description) out.ticket_description = draft.ticket_description || null;
  if (draft.priority_id !== base.priority_id && draft.priority_id !== null) out.priority_id = draft.priority_id;
  if (draft.user_id !== base.user_id) out.user_id = draft.user_id;
  if (draft.team_id !== base.team_id) out.team_id = draft.team_id;
  if (draft.ticket_yellow_deadline !== base.ticket_yellow_deadline && draft.ticket_yellow_deadline) out.ticket_yellow_deadline = draft.ticket_yellow_deadline;
  if (draft.ticket_red_deadline !== base.ticket_red_deadline && draft.ticket_red_deadline) out.ticket_red_deadline = draft.ticket_red_deadline;
  if (draft.ticket_progress !== base.ticket_progress) out.ticket_progress = draft.ticket_progress;
  if (draft.ticket_closed !== base.ticket_closed) out.ticket_closed = draft.ticket_closed ? 1 : 0;
  return out;
}

/** A picker value in local time; the server's form is RFC 3339 UTC. */
const toServer = (v: string | null) => (v ? dayjs(v).toISOString().replace(/\.\d{3}Z$/, 'Z') : null);
const toPicker = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : null);

/** One trackrecord row as a line of the timeline. */
/**
 * The ticket drawer: edit the ticket's fields (title, description,
 * priority, deadlines, responsible user and team, progress, closed) with
 * the row_version read, comment on it and see its timeline (the ticket's
 * trackrecord rows, comments among them, kept live by the event stream).
 */
export function TicketDrawer({ ticketId, boardId, priorities, onClose }: TicketDrawerProps) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const ticket = useQuery({
    queryKey: ticketKeys.ticket(ticketId ?? 0),
    queryFn: ({ signal }) => getTicket(ticketId ?? 0, signal),
    enabled: ticketId !== null,
  });
  const history = useTicketHistory(ticketId);
  // The form edits `base`, the version it was made from; saving sends its
  // row_version, so a change someone made meanwhile answers 409.
  const [form, setForm] = useState<{ base: Ticket; draft: Draft } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const current = ticket.data ?? null;
  const draft = form?.draft ?? null;
  const changes = useMemo(() => (form ? changesOf(form.base, form.draft) : {}), [form]);
  const dirty = Object.keys(changes).length > 0;

  useEffect(() => {
    setForm(null);
    setErrors({});
  }, [ticketId]);
  // A newer version read (own save, someone else's change) replaces the form unless it has edits.
  useEffect(() => {
    if (!current) return;
    setForm((f) => (f && f.base.ticket_id === current.ticket_id && Object.keys(changesOf(f.base, f.draft)).length > 0 ? f : { base: current, draft: draftOf(current) }));
  }, [current]);
  const setDraft = (d: Draft) => setForm((f) => (f ? { ...f, draft: d } : f));

  const save = async () => {
    if (!form || !dirty) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = await updateTicket(form.base.ticket_id, form.base.row_version, changes);
      setForm({ base: saved, draft: draftOf(saved) });
      qc.setQueryData(ticketKeys.ticket(saved.ticket_id), saved);
      qc.setQueryData<Ticket[]>(ticketKeys.boardTickets(boardId), (ts) => (ts ? upsertTicket(ts, saved, boardId) : ts));
      void qc.invalidateQueries({ queryKey: ticketKeys.history(saved.ticket_id) });
      notifySuccess(t('kanban.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
      notifyError(errorMessage(error));
      if (error instanceof ApiError && error.status === 409) {
        const fresh = await ticket.refetch();
        if (fresh.data) setForm({ base: fresh.data, draft: draftOf(fresh.data) });
      }
    } finally {
      setBusy(false);
    }
  };

  // A comment goes on the timeline; the live stream reloads everyone's.
  // The server asks for the note right (spec section 6); without it the
  // box is not offered.
  const ability = useAbility();
  const canComment = ability.can('note', 'ticket');
  // Changing the fields is an update of the ticket; a user who may only
  // read it sees them read-only and no Save.
  const canEdit = ability.can('update', 'ticket');
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [commenting, setCommenting] = useState(false);
  useEffect(() => {
    setComment('');
    setCommentError(undefined);
  }, [ticketId]);
  const addComment = async () => {
    if (!current || !comment.trim()) return;
    setCommenting(true);
    setCommentError(undefined);
    try {
      await commentTicket(current.ticket_id, comment);
      setComment('');
      void qc.invalidateQueries({ queryKey: ticketKeys.history(current.ticket_id) });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setCommentError(error.fieldErrors().comment ?? errorMessage(error));
      else notifyError(errorMessage(error));
    } finally {
      setCommenting(false);
    }
  };

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setForm((f) => (f ? { ...f, draft: { ...f.draft, [key]: value } } : f));
  const record = current ? { board_id: current.board_id, columnx_id: current.columnx_id, pos_id: current.pos_id } : {};

  return (
    <Drawer
      opened={ticketId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Title order={2} size="h4">
          {current ? `#${current.ticket_id} ${current.ticket_name}` : t('kanban.ticket')}
        </Title>
      }
    >
      {ticket.isLoading && <Loader aria-label={t('kanban.loading')} />}
      {ticket.isFetched && current === null && <Alert color="yellow">{t('kanban.ticket_gone')}</Alert>}
      {current && draft && (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light">{String((current as Ticket & { column_name?: string }).column_name ?? '')}</Badge>
            <Text size="sm" c="dimmed">
              {current.pos_id__label}
            </Text>
            {current.ticket_deadline_status && (
              <Badge color={BADGE_SHADE[deadlineColor(current.ticket_deadline_status)]} autoContrast>
                {t(`kanban.deadline.${current.ticket_deadline_status}`)}
              </Badge>
            )}
          </Group>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <fieldset disabled={!canEdit} data-testid="ticket-fields" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="sm">
              <TextInput label={t(DRAWER_LABELS.ticket_name)} required value={draft.ticket_name} onChange={(e) => set('ticket_name', e.currentTarget.value)} error={errors.ticket_name} />
              <Textarea label={t(DRAWER_LABELS.ticket_description)} autosize minRows={3} value={draft.ticket_description} onChange={(e) => set('ticket_description', e.currentTarget.value)} error={errors.ticket_description} />
              <Select
                label={t(DRAWER_LABELS.priority_id)}
                allowDeselect={false}
                data={priorities.map((p) => ({ value: String(p.priority_id), label: `${p.priority_smiley} ${p.priority_name}` }))}
                value={draft.priority_id === null ? null : String(draft.priority_id)}
                onChange={(v) => set('priority_id', v ? Number(v) : null)}
                error={errors.priority_id}
              />
              <Group grow align="flex-start">
                <DateTimePicker
                  label={t(DRAWER_LABELS.ticket_yellow_deadline)}
                  valueFormat={`${dateFormatFor(i18n.language)} HH:mm`}
                  firstDayOfWeek={1}
                  locale={i18n.language}
                  value={toPicker(draft.ticket_yellow_deadline)}
                  onChange={(v) => set('ticket_yellow_deadline', toServer(v))}
                  error={errors.ticket_yellow_deadline}
                />
                <DateTimePicker
                  label={t(DRAWER_LABELS.ticket_red_deadline)}
                  valueFormat={`${dateFormatFor(i18n.language)} HH:mm`}
                  firstDayOfWeek={1}
                  locale={i18n.language}
                  value={toPicker(draft.ticket_red_deadline)}
                  onChange={(v) => set('ticket_red_deadline', toServer(v))}
                  error={errors.ticket_red_deadline}
                />
              </Group>
              <Group grow align="flex-start">
                <TicketOptionSelect field="user_id" label={t(DRAWER_LABELS.user_id)} value={draft.user_id} valueLabel={current.user_id__label} onChange={(v) => set('user_id', v)} record={record} error={errors.user_id} />
                <TicketOptionSelect field="team_id" label={t(DRAWER_LABELS.team_id)} value={draft.team_id} valueLabel={current.team_id__label} onChange={(v) => set('team_id', v)} record={record} error={errors.team_id} />
              </Group>
              <Group grow align="flex-end">
                <NumberInput label={t(DRAWER_LABELS.ticket_progress)} min={0} max={100} step={10} suffix=" %" value={draft.ticket_progress} onChange={(v) => set('ticket_progress', Number(v) || 0)} error={errors.ticket_progress} />
                <Checkbox label={t(DRAWER_LABELS.ticket_closed)} checked={draft.ticket_closed} onChange={(e) => set('ticket_closed', e.currentTarget.checked)} mb={8} />
              </Group>
              {canEdit && (
                <Group justify="flex-end">
                  <Button variant="default" disabled={!dirty || busy} onClick={() => form && setDraft(draftOf(form.base))}>
                    {t('kanban.reset')}
                  </Button>
                  <Button type="submit" disabled={!dirty} loading={busy}>
                    {t('kanban.save')}
                  </Button>
                </Group>
              )}
            </Stack>
            </fieldset>
          </form>
          <Divider label={t('kanban.documents')} labelPosition="left" />
          <TicketDocuments ticketId={current.ticket_id} />
          <Divider label={t('kanban.timeline')} labelPosition="left" />
          {canComment && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void addComment();
              }}
            >
              <Stack gap={6}>
                <Textarea
                  label={t('kanban.comment')}
                  placeholder={t('kanban.comment_placeholder')}
                  autosize
                  minRows={2}
                  maxLength={4000}
                  value={comment}
                  onChange={(e) => setComment(e.currentTarget.value)}
                  error={commentError}
                />
                <Group justify="flex-end">
                  <Button type="submit" size="xs" variant="light" disabled={!comment.trim()} loading={commenting}>
                    {t('kanban.comment_add')}
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
          {history.isLoading && <Loader size="sm" aria-label={t('kanban.loading')} />}
          {history.data && history.data.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('kanban.timeline_empty')}
            </Text>
          )}
          {history.data && history.data.length > 0 && (
            <TicketTimeline ticketId={ticketId ?? 0} entries={history.data} />
          )}
        </Stack>
      )}
    </Drawer>
  );
}

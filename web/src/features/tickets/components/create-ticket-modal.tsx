import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { createTicket } from '../api/create-ticket';
import { ticketKeys } from '../api/keys';
import { type Board, type BoardColumn, type Priority, type Ticket, upsertTicket } from '../model/board';
import { TicketOptionSelect } from './ticket-option-select';

export interface CreateTicketModalProps {
  board: Board;
  /** The column to create in; null: closed. */
  column: BoardColumn | null;
  priorities: Priority[];
  onClose: () => void;
}

/**
 * A new ticket in a column (POST /tickets): title, point of sale, priority,
 * description, responsible user; the deadlines follow from the board's
 * default values on the server.
 */
export function CreateTicketModal({ board, column, priorities, onClose }: CreateTicketModalProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [posId, setPosId] = useState<number | null>(null);
  const [priorityId, setPriorityId] = useState<number | null>(null);
  const [userId, setUserId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!column) return;
    setName('');
    setDescription('');
    setPosId(null);
    setUserId(null);
    setErrors({});
    setPriorityId(priorities[0]?.priority_id ?? null);
  }, [column, priorities]);

  const submit = async () => {
    if (!column) return;
    const missing: Record<string, string> = {};
    if (!name.trim()) missing.ticket_name = t('kanban.required');
    if (posId === null) missing.pos_id = t('kanban.required');
    if (priorityId === null) missing.priority_id = t('kanban.required');
    setErrors(missing);
    if (Object.keys(missing).length > 0 || posId === null || priorityId === null) return;
    setBusy(true);
    try {
      const created = await createTicket({
        ticket_name: name.trim(),
        ticket_description: description.trim() || undefined,
        pos_id: posId,
        priority_id: priorityId,
        board_id: board.board_id,
        columnx_id: column.columnx_id,
        user_id: userId,
      });
      qc.setQueryData<Ticket[]>(ticketKeys.boardTickets(board.board_id), (ts) => (ts ? upsertTicket(ts, created, board.board_id) : ts));
      notifySuccess(t('kanban.created', { ticket: created.ticket_name }));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
      notifyError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const record = { board_id: board.board_id, columnx_id: column?.columnx_id, pos_id: posId };
  return (
    <Modal opened={column !== null} onClose={onClose} title={t('kanban.new_in', { column: column?.columnx_name ?? '' })} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput label={t('kanban.field_title')} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.ticket_name} data-autofocus />
          <TicketOptionSelect field="pos_id" label={t('kanban.field_pos')} required value={posId} onChange={setPosId} record={record} error={errors.pos_id} />
          <Select
            label={t('kanban.field_priority')}
            required
            allowDeselect={false}
            data={priorities.map((p) => ({ value: String(p.priority_id), label: `${p.priority_smiley} ${p.priority_name}` }))}
            value={priorityId === null ? null : String(priorityId)}
            onChange={(v) => setPriorityId(v ? Number(v) : null)}
            error={errors.priority_id}
          />
          <TicketOptionSelect field="user_id" label={t('kanban.field_user')} value={userId} onChange={setUserId} record={record} error={errors.user_id} />
          <Textarea label={t('kanban.field_description')} autosize minRows={3} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('kanban.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('kanban.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

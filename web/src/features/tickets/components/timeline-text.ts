import type { TFunction } from 'i18next';
import {
  fieldLabel,
  historyTypeText,
  type LabelAsk,
  labelAsks,
  refOf,
  type RowLabels,
  valueText,
} from '../../../components/history/history-text';
import { companionFields, type TableDefinition } from '../../../lib/table-definition';
import type { TimelineEntry } from '../api/ticket-history';

/** What a timeline entry says: a sentence and, below it, the lines of its details. */
export interface TimelineText {
  title: string;
  lines: string[];
}

/**
 * Fields an update entry does not spell out: the column (its move entry
 * says where the ticket went), the place in the column, the mark that the
 * ticket changed since its responsible saw it, and the names
 * repeated beside their reference (board_name beside board_id).
 */
const QUIET_FIELDS = new Set(['columnx_id', 'ticket_rank', 'ticket_updated']);

/**
 * The labels the ticket drawer gives its fields: the timeline beside it
 * names a change the way the form above it does ("Title", not the table's
 * "Name").
 */
export const DRAWER_LABELS: Readonly<Record<string, string>> = {
  ticket_name: 'kanban.field_title',
  ticket_description: 'kanban.field_description',
  priority_id: 'kanban.field_priority',
  ticket_yellow_deadline: 'kanban.field_yellow',
  ticket_red_deadline: 'kanban.field_red',
  user_id: 'kanban.field_user',
  team_id: 'kanban.field_team',
  ticket_progress: 'kanban.field_progress',
  ticket_closed: 'kanban.field_closed',
};

export function changesOf(entry: TimelineEntry): Record<string, [unknown, unknown]> {
  if (!entry.changes) return {};
  try {
    const parsed = JSON.parse(entry.changes) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, [unknown, unknown]>) : {};
  } catch {
    return {};
  }
}

/** The rows whose labels the timeline names (teams, users, documents). */
export function timelineAsks(entries: TimelineEntry[], def: TableDefinition | undefined, ticketId: number): LabelAsk[] {
  return labelAsks(def, entries.map(changesOf), ticketId);
}

/**
 * The mail entries of the documents module read "Mail <id> from <address>:
 * <subject>" (received) or "Mail <id> to <addresses>: <subject>" (sent);
 * the timeline says them in the user's language.
 */
const MAIL = /^Mail \d+ (?:from|to) (.*?): (.*)$/s;

/** One changed field as a sentence: "Assigned to team FM", "Priority: High". */
function changeLine(field: string, to: unknown, def: TableDefinition | undefined, labels: RowLabels, t: TFunction, lang: string): string {
  const empty = to === null || to === undefined || to === '';
  const value = valueText(to, field, def, labels, t, lang);
  if (field === 'team_id') return empty ? t('kanban.timeline.unassigned_team') : t('kanban.timeline.assigned_team', { team: value });
  if (field === 'user_id') return empty ? t('kanban.timeline.unassigned_user') : t('kanban.timeline.assigned_user', { user: value });
  const label = DRAWER_LABELS[field] ? t(DRAWER_LABELS[field]) : fieldLabel(def, field);
  return empty ? t('history.cleared', { field: label }) : t('history.changed', { field: label, value });
}

/** The sentence of a link or unlink entry: "Linked document: Mietvertrag.pdf". */
function linkLines(entry: TimelineEntry, def: TableDefinition | undefined, labels: RowLabels, t: TFunction, lang: string): string[] {
  return Object.entries(changesOf(entry)).map(([rel, [from, to]]) => {
    const target = refOf(def, rel)?.table ?? rel;
    const name = valueText(entry.type === 'link' ? to : from, rel, def, labels, t, lang);
    return t(entry.type === 'link' ? 'history.linked' : 'history.unlinked', { what: t(`entity.${target}`), name });
  });
}

/**
 * The sentence and details of a ticket's timeline entry, from its type, the
 * state it reached, its changes and who made it: "Moved to Quality check",
 * "Assigned to team FM", "Linked document: Mietvertrag.pdf", "Signed by
 * Anna Admin". Module comments written for the audit trail (digests, ids)
 * are not shown; a user's own comment is.
 */
export function timelineText(
  entry: TimelineEntry,
  def: TableDefinition | undefined,
  labels: RowLabels,
  t: TFunction,
  lang: string,
): TimelineText {
  const changes = changesOf(entry);
  switch (entry.type) {
    case 'move':
      return { title: t('kanban.timeline.moved', { column: entry.status ?? '' }), lines: [] };
    case 'stamp':
      return { title: t('kanban.timeline.stamped', { column: entry.status ?? '' }), lines: [] };
    case 'sign': {
      const [original] = changes.document_id ?? [];
      const doc = labels.get('document')?.get(Number(original));
      return { title: t('kanban.timeline.signed', { user: entry.user ?? '' }), lines: doc ? [doc] : [] };
    }
    case 'comment':
      return { title: historyTypeText('comment', t), lines: entry.comment ? [entry.comment] : [] };
    case 'email': {
      const m = MAIL.exec(entry.comment ?? '');
      const key = entry.status === 'sent' ? 'kanban.timeline.mail_sent' : 'kanban.timeline.mail_received';
      return { title: m ? t(key, { who: m[1], subject: m[2] }) : historyTypeText('email', t), lines: [] };
    }
    case 'link':
    case 'unlink': {
      const lines = linkLines(entry, def, labels, t, lang);
      return { title: lines[0] ?? historyTypeText(entry.type, t), lines: lines.slice(1) };
    }
    case 'update': {
      const lines = Object.entries(changes)
        .filter(([field]) => !isQuiet(field, def))
        .map(([field, pair]) => changeLine(field, Array.isArray(pair) ? pair[1] : pair, def, labels, t, lang));
      return { title: lines.length === 1 ? lines[0] : historyTypeText('update', t), lines: lines.length === 1 ? [] : lines };
    }
    default:
      return { title: historyTypeText(entry.type, t), lines: [] };
  }
}

/**
 * True for a field an update entry does not spell out: a quiet one, a
 * companion name, or one the served definition does not show (internal
 * marks such as ticket_updated).
 */
function isQuiet(field: string, def: TableDefinition | undefined): boolean {
  if (QUIET_FIELDS.has(field)) return true;
  if (!def) return false;
  const shown = def.attributes.some((a) => a.attribute === field) || def.relations.some((r) => r.name === field);
  return !shown || companionFields(def.attributes).has(field);
}

/** True for an update entry that only moved the ticket (its move entry tells it). */
export function isQuietUpdate(entry: TimelineEntry, def: TableDefinition | undefined): boolean {
  if (entry.type !== 'update') return false;
  const fields = Object.keys(changesOf(entry));
  return fields.length > 0 && fields.every((f) => isQuiet(f, def));
}

import { Text, Timeline } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type RowLabels, useRowLabels } from '../../../components/history/history-text';
import { formatDate } from '../../../lib/dates';
import type { TableDefinition } from '../../../lib/table-definition';
import { useDefinition } from '../../tables/api/get-definition';
import type { TimelineEntry } from '../api/ticket-history';
import { isQuietUpdate, timelineAsks, timelineText } from './timeline-text';

function TimelineLine({ entry, def, labels }: { entry: TimelineEntry; def: TableDefinition | undefined; labels: RowLabels }) {
  const { t, i18n } = useTranslation();
  const text = timelineText(entry, def, labels, t, i18n.language);
  return (
    <Timeline.Item title={text.title} data-timeline-type={entry.type}>
      {text.lines.map((line, i) => (
        <Text key={i} size="sm">
          {line}
        </Text>
      ))}
      <Text size="xs" c="dimmed">
        {[entry.user, formatDate(entry.timestamp, i18n.language)].filter(Boolean).join(' · ')}
      </Text>
    </Timeline.Item>
  );
}

/** The ticket's timeline as sentences: fields by their labels, referenced rows by theirs. */
export function TicketTimeline({ ticketId, entries }: { ticketId: number; entries: TimelineEntry[] }) {
  const { t } = useTranslation();
  const def = useDefinition('ticket').data;
  const shown = useMemo(() => entries.filter((entry) => !isQuietUpdate(entry, def)), [entries, def]);
  const labels = useRowLabels(useMemo(() => timelineAsks(shown, def, ticketId), [shown, def, ticketId]));
  return (
    <Timeline bulletSize={12} lineWidth={2} aria-label={t('kanban.timeline')}>
      {shown.map((entry) => (
        <TimelineLine key={entry.id} entry={entry} def={def} labels={labels} />
      ))}
    </Timeline>
  );
}

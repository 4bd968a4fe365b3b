import { Alert, Anchor, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import type { HistoryEntry } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { useRecordFacts } from '../api/record-facts';

/** The key facts the side panel shows per entity (fields of the generic read; labels from the texts). */
export const KEY_FACTS: Record<string, string[]> = {
  pos: ['pos_id', 'company_id', 'pos_branchnumber', 'pos_internal_id', 'pos_opening_date'],
  contract: ['contract_id', 'company_id', 'contracttype_id', 'contract_begin_date', 'contract_end_date', 'contract_next_notice_date'],
};

/** Shows the administrator side panel on these entities' record pages (specification: points of sale and contracts). */
export function hasAdminSidePanel(entity: string): boolean {
  return entity in KEY_FACTS;
}

/** A fact as the forms show it: its label, or a date in the interface's format ("31.07.2029" in German). */
export function factValue(row: Row, field: string, lang: string): string {
  const v = row[`${field}__label`] ?? row[field];
  if (v === null || v === undefined || v === '') return '–';
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? formatDate(v, lang) : String(v);
}

/**
 * The administrator side panel of a point of sale or contract: key facts,
 * creation and last change (who, when) from the record's history, a link to
 * the history and the row version. Administrators only: the panel renders
 * nothing for anyone else, nor when the server refuses the history. The
 * link opens the record's history tab (?tab=history).
 */
export function AdminSidePanel({ entity, id }: { entity: string; id: number }) {
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const isAdmin = ability.can('manage', 'all');
  const facts = useRecordFacts(entity, id, isAdmin);
  if (!isAdmin) return null;
  if (facts.error instanceof ApiError && facts.error.status === 403) return null;
  const who = (e: HistoryEntry | null) =>
    e ? t('masterdata.side_panel.by', { user: e.user || t('masterdata.side_panel.unknown_user'), when: formatDate(e.timestamp, i18n.language) }) : t('masterdata.side_panel.not_recorded');
  return (
    <Paper withBorder radius="md" p="md" component="aside" aria-label={t('masterdata.side_panel.title')} data-testid="admin-side-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{t('masterdata.side_panel.title')}</Title>
          <Badge variant="light">{t('masterdata.side_panel.admins_only')}</Badge>
        </Group>
        {facts.isPending ? (
          <Loader size="sm" aria-label={t('general.loading')} />
        ) : facts.isError ? (
          <Alert color="red">{t('masterdata.load_error')}</Alert>
        ) : (
          <>
            <dl style={{ margin: 0 }}>
              {(KEY_FACTS[entity] ?? []).map((f) => (
                <Group key={f} justify="space-between" gap="xs" wrap="nowrap">
                  <Text component="dt" size="sm" c="dimmed">
                    {t(`masterdata.side_panel.fact.${f}`)}
                  </Text>
                  <Text component="dd" size="sm" m={0} ta="right">
                    {factValue(facts.data.row, f, i18n.language)}
                  </Text>
                </Group>
              ))}
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text component="dt" size="sm" c="dimmed">
                  {t('masterdata.side_panel.row_version')}
                </Text>
                <Text component="dd" size="sm" m={0} data-testid="row-version">
                  {String(facts.data.row.row_version ?? '–')}
                </Text>
              </Group>
            </dl>
            <div>
              <Text size="sm" fw={500}>
                {t('masterdata.side_panel.created')}
              </Text>
              <Text size="sm" c="dimmed" data-testid="created">
                {who(facts.data.created)}
              </Text>
            </div>
            <div>
              <Text size="sm" fw={500}>
                {t('masterdata.side_panel.changed')}
              </Text>
              <Text size="sm" c="dimmed" data-testid="changed">
                {who(facts.data.changed)}
              </Text>
            </div>
            <Anchor component={Link} to={{ search: '?tab=history' }} size="sm">
              <Group gap={4}>
                <IconHistory size={14} />
                {t('masterdata.side_panel.history_link', { count: facts.data.entries })}
              </Group>
            </Anchor>
          </>
        )}
      </Stack>
    </Paper>
  );
}

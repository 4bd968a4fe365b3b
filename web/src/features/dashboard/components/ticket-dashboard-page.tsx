import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Alert, Anchor, Box, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { useTicketDashboard } from '../api/dashboard';
import { STATUS_COLORS, ticketLink, ticketsClosedLink, ticketsCreatedLink, ticketStatusLink } from '../model/links';
import type { TicketDashboard, TicketStatus } from '../model/types';

const STATUSES: TicketStatus[] = ['over_due_red', 'critical_yellow', 'before_deadline'];

/** A count as a link to the ticket list it counts. */
function CountLink({ to, value, label, testId }: { to: string; value: number; label: string; testId?: string }) {
  return (
    <Anchor component={Link} to={to} fw={700} aria-label={`${label}: ${value}`} data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {value}
    </Anchor>
  );
}

/** One board: its open tickets per column as bars (a click opens the column's list) and as links. */
function BoardCard({ board }: { board: TicketDashboard['boards'][number] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const columnLink = (columnx: number) =>
    ticketLink([
      { field: 'board_id', op: 'eq', value: board.board_id },
      { field: 'columnx_id', op: 'eq', value: columnx },
    ]);
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="md">
          {board.board_name}
        </Title>
        <CountLink
          to={ticketLink([{ field: 'board_id', op: 'eq', value: board.board_id }])}
          value={board.count}
          label={board.board_name}
          testId={`board-${board.board_id}`}
        />
      </Group>
      <BarChart
        h={180}
        data={board.columns.map((c) => ({ column: c.columnx_name, count: c.count, id: c.columnx_id }))}
        dataKey="column"
        series={[{ name: 'count', label: t('dashboard.open'), color: 'blue.6' }]}
        tickLine="none"
        gridAxis="none"
        barProps={{
          cursor: 'pointer',
          onClick: (d: { payload?: { id?: number } }) => {
            if (d.payload?.id) void navigate(columnLink(d.payload.id));
          },
        }}
      />
      <Table mt="sm" verticalSpacing={4}>
        <Table.Tbody>
          {board.columns.map((c) => (
            <Table.Tr key={c.columnx_id}>
              <Table.Td>{c.columnx_name}</Table.Td>
              <Table.Td ta="right">
                <CountLink to={columnLink(c.columnx_id)} value={c.count} label={`${board.board_name} · ${c.columnx_name}`} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** /app/dashboard/ticket: open tickets per board and column, per deadline status and per team; opened and closed per week. */
export function TicketDashboardPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const dash = useTicketDashboard();
  if (dash.isPending) return <Loader m="xl" aria-label="loading" />;
  if (dash.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
        {t('dashboard.error')}
      </Alert>
    );
  const d = dash.data;
  const weeks = d.weeks.map((w) => ({
    week: formatDate(w.from, i18n.language),
    from: w.from,
    to: w.to,
    opened: w.opened,
    closed: w.closed,
  }));
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {t('screen.ticket_dashboard')}
        </Title>
        <Text c="dimmed" mt={4}>
          {t('dashboard.tickets_total', { count: d.open })}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {STATUSES.map((st) => (
          <Card key={st} withBorder radius="md" padding="lg" style={{ borderLeft: `4px solid var(--mantine-color-${STATUS_COLORS[st]}-6)` }}>
            <Anchor component={Link} to={ticketStatusLink(st)} underline="never" data-testid={`status-${st}`} aria-label={`${t(`dashboard.status_${st}`)}: ${d.statuses[st]}`}>
              <Text fz={28} fw={700} lh={1.1} c={`${STATUS_COLORS[st]}.7`}>
                {d.statuses[st]}
              </Text>
              <Text size="sm" c="dimmed">
                {t(`dashboard.status_${st}`)}
              </Text>
            </Anchor>
          </Card>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        {d.boards.map((b) => (
          <BoardCard key={b.board_id} board={b} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Card withBorder radius="md" padding="lg">
          <Title order={3} fz="md" mb="sm">
            {t('dashboard.per_team')}
          </Title>
          <Table verticalSpacing={6}>
            <Table.Tbody>
              {d.teams.map((tm) => {
                const label = tm.team_id === null ? t('dashboard.no_team') : tm.team_name;
                return (
                  <Table.Tr key={tm.team_id ?? 'none'}>
                    <Table.Td>{label}</Table.Td>
                    <Table.Td w="60%">
                      <Box h={8} w={`${d.open ? (100 * tm.count) / d.open : 0}%`} bg="blue.5" style={{ borderRadius: 4, minWidth: 4 }} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <CountLink
                        to={ticketLink([
                          tm.team_id === null ? { field: 'team_id', op: 'is_null' } : { field: 'team_id', op: 'eq', value: tm.team_id },
                        ])}
                        value={tm.count}
                        label={label}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Title order={3} fz="md" mb="sm">
            {t('dashboard.weeks')}
          </Title>
          <BarChart
            h={220}
            data={weeks}
            dataKey="week"
            withLegend
            tickLine="none"
            gridAxis="none"
            series={[
              { name: 'opened', label: t('dashboard.opened'), color: 'blue.6' },
              { name: 'closed', label: t('dashboard.closed'), color: 'teal.6' },
            ]}
            barProps={(series) => ({
              cursor: 'pointer',
              onClick: (bar: { payload?: { from?: string; to?: string } }) => {
                const p = bar.payload;
                if (!p?.from || !p.to) return;
                void navigate(series.name === 'opened' ? ticketsCreatedLink(p.from, p.to) : ticketsClosedLink());
              },
            })}
          />
          <Text size="xs" c="dimmed" mt="xs">
            {t('dashboard.weeks_hint')}
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export default TicketDashboardPage;

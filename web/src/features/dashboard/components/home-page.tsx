import '@mantine/charts/styles.css';
import { DonutChart } from '@mantine/charts';
import { Alert, Anchor, Box, Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconLayoutGrid, IconUserCircle } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { useSession } from '../../../lib/use-session';
import { useDashboardSummary } from '../api/dashboard';
import {
  deadlineLink,
  homeLinks,
  LIGHT_COLORS,
  overdueDeadlineLink,
  overdueStatementLink,
  statementDeadlineLink,
  STATUS_COLORS,
  ticketStatusLink,
} from '../model/links';
import type { Light, Summary, TicketStatus } from '../model/types';
import { PortfolioMap } from './portfolio-map';

const LIGHTS: Light[] = ['red', 'yellow', 'green'];
const STATUSES: TicketStatus[] = ['over_due_red', 'critical_yellow', 'before_deadline'];

/** Number formatting in the user's language. */
function useFormat() {
  const { i18n } = useTranslation();
  const whole = new Intl.NumberFormat(i18n.language);
  const money = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const space = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return { whole: (n: number) => whole.format(n), money: (n: number) => money.format(n), space: (n: number) => space.format(n) };
}

/** One figure: its value as a link to the list it counts, with its label. */
function Figure({ label, value, to, color, testId }: { label: string; value: string; to: string; color?: string; testId: string }) {
  return (
    <Anchor component={Link} to={to} underline="never" data-testid={testId} style={{ display: 'block' }}>
      <Text fz={{ base: 22, sm: 26 }} fw={700} lh={1.1} c={color ? `${color}.7` : undefined} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Anchor>
  );
}

/** A card of the home's figures; `action` sits beside the title. */
function FigureCard({ title, children, footer, action }: { title: string; children: ReactNode; footer?: ReactNode; action?: ReactNode }) {
  const heading = (
    <Title order={2} fz="md" mb={action ? 0 : 'md'}>
      {title}
    </Title>
  );
  return (
    <Card withBorder radius="md" padding="lg">
      {action ? (
        <Group justify="space-between" align="center" wrap="nowrap" mb="md">
          {heading}
          {action}
        </Group>
      ) : (
        heading
      )}
      {children}
      {footer}
    </Card>
  );
}

/** The portfolio's size: points of sale, contracts and rental space. */
function SizeCard({ s }: { s: Summary }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <FigureCard title={t('dashboard.portfolio')}>
      <Group gap="xl" align="flex-start" wrap="wrap">
        {s.pos_count !== null && <Figure testId="figure-pos" label={t('dashboard.pos_count')} value={f.whole(s.pos_count)} to={homeLinks.pos()} />}
        {s.contract_count !== null && (
          <Figure testId="figure-contracts" label={t('dashboard.contract_count')} value={f.whole(s.contract_count)} to={homeLinks.contracts()} />
        )}
        {s.rental_space !== null && (
          <Figure testId="figure-space" label={t('dashboard.rental_space')} value={`${f.space(s.rental_space)} m²`} to={homeLinks.rentalSpace()} />
        )}
      </Group>
    </FigureCard>
  );
}

/**
 * Deadlines falling within 90 days, by traffic light: the contracts' notice
 * dates, or (statements) the objection deadlines of service-charge statements.
 */
function DeadlineCard({ s, statements = false }: { s: Summary; statements?: boolean }) {
  const { t, i18n } = useTranslation();
  const f = useFormat();
  const counts = statements ? s.statement_deadlines_90_days : s.deadlines_90_days;
  if (!counts) return null;
  const shown = LIGHTS.filter((l) => s.deadline_windows[l] !== null);
  const link = statements ? statementDeadlineLink : deadlineLink;
  const overdueLink = statements ? overdueStatementLink : overdueDeadlineLink;
  const kind = statements ? 'statements' : 'deadlines';
  return (
    <FigureCard title={t(statements ? 'dashboard.statement_deadlines_90' : 'dashboard.deadlines_90')}>
      <SimpleGrid cols={shown.length + 1} spacing="md">
        {/* What passed and nobody closed stays in sight until someone does. */}
        <Figure
          testId={`figure-${kind}-overdue`}
          label={t('dashboard.overdue')}
          value={f.whole(counts.overdue ?? 0)}
          color="red"
          to={overdueLink(s.today)}
        />
        {shown.map((l) => (
          <Figure
            key={l}
            testId={`figure-${kind}-${l}`}
            label={t(`dashboard.window_${l}`, {
              from: formatDate(s.deadline_windows[l]![0], i18n.language),
              to: formatDate(s.deadline_windows[l]![1], i18n.language),
            })}
            value={f.whole(counts[l])}
            color={LIGHT_COLORS[l]}
            to={link(s.deadline_windows[l]!)}
          />
        ))}
      </SimpleGrid>
    </FigureCard>
  );
}

/** Open tickets by deadline status, with a ring of the shares. */
function TicketCard({ s }: { s: Summary }) {
  const { t } = useTranslation();
  const f = useFormat();
  const counts = s.tickets_open;
  if (!counts) return null;
  const total = STATUSES.reduce((n, st) => n + counts[st], 0);
  return (
    <FigureCard title={t('dashboard.tickets_open')}>
      <Group wrap="nowrap" align="center" gap="lg">
        <DonutChart
          size={96}
          thickness={14}
          withTooltip={false}
          chartLabel={f.whole(total)}
          data={
            total === 0
              ? [{ name: 'none', value: 1, color: 'gray.3' }]
              : STATUSES.map((st) => ({ name: t(`dashboard.status_${st}`), value: counts[st], color: `${STATUS_COLORS[st]}.6` }))
          }
        />
        <Stack gap="xs" style={{ flex: 1 }}>
          {STATUSES.map((st) => (
            <Group key={st} justify="space-between" wrap="nowrap">
              <Group gap={6} wrap="nowrap">
                <Box w={10} h={10} style={{ borderRadius: '50%', background: `var(--mantine-color-${STATUS_COLORS[st]}-6)` }} />
                <Text size="sm">{t(`dashboard.status_${st}`)}</Text>
              </Group>
              <Anchor
                component={Link}
                to={ticketStatusLink(st)}
                fw={700}
                data-testid={`figure-tickets-${st}`}
                aria-label={`${t(`dashboard.status_${st}`)}: ${counts[st]}`}
              >
                {f.whole(counts[st])}
              </Anchor>
            </Group>
          ))}
        </Stack>
      </Group>
    </FigureCard>
  );
}

/** Index adjustment proposals waiting for a decision. */
function ProposalCard({ s }: { s: Summary }) {
  const { t } = useTranslation();
  const f = useFormat();
  if (s.index_proposals_open === null) return null;
  return (
    <FigureCard title={t('dashboard.index_proposals')}>
      <Figure testId="figure-proposals" label={t('dashboard.index_proposals_open')} value={f.whole(s.index_proposals_open)} to={homeLinks.proposals()} />
    </FigureCard>
  );
}

/**
 * The invoice review's savings of a year, this year's first; the years that
 * have any are a choice. A claim counts in the year it was made (decision 0069).
 */
function SavingsCard({ s }: { s: Summary }) {
  const { t } = useTranslation();
  const f = useFormat();
  const [chosen, setChosen] = useState(s.year);
  const years = s.savings_by_year ?? (s.savings_year ? [{ ...s.savings_year, year: s.year }] : []);
  const sv = years.find((y) => y.year === chosen) ?? s.savings_year;
  if (!sv) return null;
  const parts = [
    { key: 'claimed', value: sv.claimed, to: homeLinks.claimed() },
    { key: 'accepted', value: sv.accepted, to: homeLinks.accepted() },
    { key: 'realised', value: sv.realised, to: homeLinks.realised() },
  ].filter((p): p is { key: string; value: number; to: string } => p.value !== null);
  if (parts.length === 0) return null;
  const choice =
    years.length > 1 ? (
      <Select
        aria-label={t('dashboard.savings_year')}
        size="xs"
        w={96}
        allowDeselect={false}
        value={String(chosen)}
        onChange={(v) => v && setChosen(Number(v))}
        data={years.map((y) => String(y.year))}
        data-testid="savings-year"
      />
    ) : undefined;
  return (
    <FigureCard
      title={choice ? t('dashboard.savings_title') : t('dashboard.savings', { year: chosen })}
      action={choice}
      footer={
        <Text size="xs" c="dimmed" mt="sm">
          {t('dashboard.savings_note')}
        </Text>
      }
    >
      <Group gap="xl" align="flex-start" wrap="wrap">
        {parts.map((p) => (
          <Figure key={p.key} testId={`figure-savings-${p.key}`} label={t(`dashboard.savings_${p.key}`)} value={f.money(p.value)} to={p.to} />
        ))}
      </Group>
    </FigureCard>
  );
}

/** /app: the dashboard home, the landing page after login. */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const summary = useDashboardSummary();
  const name = user?.user_firstname?.trim() || user?.user_email || '';
  const s = summary.data;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {t('home.greeting', { name })}
          </Title>
          <Text c="dimmed" mt={4}>
            {t('home.today', { date: formatDate(new Date().toISOString().slice(0, 10), i18n.language) })}
          </Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to="/app/menu" variant="default" leftSection={<IconLayoutGrid size={16} />}>
            {t('layout.menu_page')}
          </Button>
          <Button component={Link} to="/app/user/profile" variant="default" leftSection={<IconUserCircle size={16} />}>
            {t('layout.profile')}
          </Button>
        </Group>
      </Group>
      {summary.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
          {t('dashboard.error')}
        </Alert>
      )}
      {summary.isPending && (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={130} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {s && (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="lg">
          <SizeCard s={s} />
          <DeadlineCard s={s} />
          <DeadlineCard s={s} statements />
          <TicketCard s={s} />
          <ProposalCard s={s} />
          <SavingsCard s={s} />
        </SimpleGrid>
      )}
      {s && s.pos_count !== null && <PortfolioMap />}
    </Stack>
  );
}

export default HomePage;

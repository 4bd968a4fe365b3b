import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Alert, Button, Group, Loader, Paper, ScrollArea, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../lib/notify';
import { serverDetail } from '../../tables/components/table-errors';
import { downloadSavings, SAVINGS_GROUPS, type SavingsGroup, useSavings } from '../api/savings';
import { formatAmount } from '../model/review';

/** The bars drawn at most; the table lists every group. */
const MAX_BARS = 30;

/**
 * /app/invoice-savings: what the invoice review claimed, what the landlords
 * accepted and what was realised, per year, customer group, company or
 * point of sale, for one year (the years that have savings are the choice)
 * or all, as a chart and a table, exportable as CSV or XLSX. A claim counts
 * in the year it was made, a result in the year it was recorded (decision 0069).
 */
export default function SavingsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [group, setGroup] = useState<SavingsGroup>('year');
  const [year, setYear] = useState<number | null>(null);
  const savings = useSavings(group, year);
  // The years that have savings, newest first: the year's choice.
  const byYear = useSavings('year', null);
  const years = (byYear.data?.rows ?? [])
    .map((r) => r.key)
    .filter((y) => y > 0)
    .sort((a, b) => b - a)
    .map(String);
  const series = [
    { name: 'claimed', label: t('invoices.claimed'), color: 'orange.6' },
    { name: 'accepted', label: t('invoices.accepted'), color: 'blue.6' },
    { name: 'realised', label: t('invoices.realised'), color: 'teal.6' },
  ];
  const rows = savings.data?.rows ?? [];
  const data = rows.slice(0, MAX_BARS).map((r) => ({
    label: r.label || t('invoices.no_group'),
    claimed: Number(r.claimed),
    accepted: Number(r.accepted),
    realised: Number(r.realised),
  }));
  const download = (format: 'csv' | 'xlsx') => downloadSavings(group, year, format).catch((e: unknown) => notifyError(serverDetail(e)));
  return (
    <Stack gap="md" maw={1200}>
      <Title order={1} size="h2">
        {t('invoices.savings_title')}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('invoices.group_by')}
          </Text>
          <SegmentedControl
            aria-label={t('invoices.group_by')}
            value={group}
            onChange={(v) => setGroup(v as SavingsGroup)}
            data={SAVINGS_GROUPS.map((g) => ({ value: g, label: t(`invoices.group.${g}`) }))}
          />
        </Stack>
        <Select
          label={t('invoices.claim_year')}
          placeholder={t('invoices.all_years')}
          value={year ? String(year) : null}
          onChange={(v) => setYear(v ? Number(v) : null)}
          data={years}
          clearable
          w={180}
        />
        <Group gap="xs" ml="auto">
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => download('csv')}>
            CSV
          </Button>
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => download('xlsx')}>
            XLSX
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mt={-8}>
        {t('invoices.claim_year_help')}
      </Text>
      {savings.isPending && <Loader />}
      {savings.isError && <Alert color="red">{serverDetail(savings.error)}</Alert>}
      {savings.data && (
        <>
          <Paper withBorder p="md" radius="md">
            {data.length === 0 ? (
              <Text c="dimmed">{t('invoices.no_savings')}</Text>
            ) : (
              <BarChart
                h={320}
                data={data}
                dataKey="label"
                series={series}
                withLegend
                legendProps={{ verticalAlign: 'bottom' }}
                valueFormatter={(v) => formatAmount(v, lang)}
                tickLine="y"
                aria-label={t('invoices.savings_chart')}
              />
            )}
            {rows.length > MAX_BARS && (
              <Text size="xs" c="dimmed" mt="xs">
                {t('invoices.chart_capped', { count: MAX_BARS })}
              </Text>
            )}
          </Paper>
          <Paper withBorder radius="md">
            <ScrollArea type="auto">
              <Table striped verticalSpacing="xs" aria-label={t('invoices.savings_title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t(`invoices.group.${group}`)}</Table.Th>
                    <Table.Th ta="right">{t('invoices.claimed')}</Table.Th>
                    <Table.Th ta="right">{t('invoices.accepted')}</Table.Th>
                    <Table.Th ta="right">{t('invoices.realised')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={`${r.key}-${r.label}`}>
                      <Table.Td>{r.label || t('invoices.no_group')}</Table.Td>
                      <Table.Td ta="right">{formatAmount(r.claimed, lang)}</Table.Td>
                      <Table.Td ta="right">{formatAmount(r.accepted, lang)}</Table.Td>
                      <Table.Td ta="right">{formatAmount(r.realised, lang)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr>
                    <Table.Th>{t('invoices.total')}</Table.Th>
                    <Table.Th ta="right" data-testid="savings-total-claimed">
                      {formatAmount(savings.data.total.claimed, lang)}
                    </Table.Th>
                    <Table.Th ta="right">{formatAmount(savings.data.total.accepted, lang)}</Table.Th>
                    <Table.Th ta="right">{formatAmount(savings.data.total.realised, lang)}</Table.Th>
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </ScrollArea>
          </Paper>
        </>
      )}
    </Stack>
  );
}

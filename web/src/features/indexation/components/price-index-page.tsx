import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Pagination, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle, IconUpload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { useRecord } from '../../tables/api/get-record';
import { DefinitionError, tableLabel } from '../../tables/components/table-common';
import { usePriceIndexValues } from '../api/indexation';
import { chartPoints, formatMonth, formatNumber, pageOf, tableRows } from '../model/logic';
import { ImportModal } from './import-modal';

/** Months per page of the value table: two years. */
const PAGE_SIZE = 24;

/** /app/table/priceindex/view/{id}: a price index series as a chart and a table, its attribution, and the import for administrators. */
export default function PriceIndexPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const seriesId = Number(id);
  const ability = useAbility();
  const record = useRecord('priceindex', id);
  const values = usePriceIndexValues(seriesId);
  const [page, setPage] = useState(1);
  const [importing, setImporting] = useState(false);
  const lang = i18n.language;
  const points = useMemo(() => chartPoints(values.data ?? []), [values.data]);
  const rows = useMemo(() => tableRows(points), [points]);
  const chartData = useMemo(() => points.map((p) => ({ month: formatMonth(p.month, lang), value: p.value })), [points, lang]);

  if (record.isPending) return <Loader m="xl" />;
  if (record.isError) return <DefinitionError table="priceindex" error={record.error} record />;
  const row = record.data.data;
  const name = String(row.priceindex_name ?? `#${id}`);
  const canImport = ability.can('update', 'priceindex');
  const shown = pageOf(rows, page, PAGE_SIZE);
  const latest = rows[0];

  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4} miw={0}>
          <Breadcrumbs>
            <Anchor component={Link} to="/app/table/priceindex" size="sm">
              {tableLabel(t, 'priceindex')}
            </Anchor>
            <span>{name}</span>
          </Breadcrumbs>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
        </Stack>
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to="/app/table/priceindex">
            {t('form.back_to_list')}
          </Button>
          {canImport && (
            <Button leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
              {t('indexation.import')}
            </Button>
          )}
        </Group>
      </Group>

      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Fact label={t('indexation.code')} value={String(row.priceindex_code ?? '')} />
          <Fact label={t('indexation.base_year')} value={`${String(row.priceindex_baseyear ?? '')} = 100`} />
          <Fact label={t('indexation.months')} value={String(points.length)} />
          <Fact
            label={t('indexation.latest')}
            value={latest ? `${formatMonth(latest.month, lang)}: ${formatNumber(latest.value, lang, 1)}` : '–'}
          />
        </SimpleGrid>
      </Paper>

      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} title={t('indexation.attribution')} data-testid="index-attribution">
        <Stack gap={4}>
          {row.priceindex_source ? (
            <Text size="sm">
              <Text span fw={600}>
                {t('indexation.source')}:{' '}
              </Text>
              {String(row.priceindex_source)}
            </Text>
          ) : null}
          {row.priceindex_licence ? (
            <Text size="sm">
              <Text span fw={600}>
                {t('indexation.licence')}:{' '}
              </Text>
              {String(row.priceindex_licence)}
            </Text>
          ) : null}
          {!row.priceindex_source && !row.priceindex_licence && <Text size="sm">{t('indexation.no_attribution')}</Text>}
        </Stack>
      </Alert>

      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('indexation.chart_title')}
        </Title>
        {values.isPending ? (
          <Loader />
        ) : points.length === 0 ? (
          <Text c="dimmed">{t('indexation.no_values')}</Text>
        ) : (
          <div role="img" aria-label={t('indexation.chart_label', { name, count: points.length })}>
            <LineChart
              h={320}
              data={chartData}
              dataKey="month"
              series={[{ name: 'value', label: t('indexation.value'), color: 'blue.6' }]}
              curveType="linear"
              withDots={false}
              gridAxis="xy"
              yAxisProps={{ domain: ['auto', 'auto'], width: 48 }}
              xAxisProps={{ minTickGap: 48 }}
              valueFormatter={(v) => formatNumber(v, lang, 1)}
            />
          </div>
        )}
      </Paper>

      <Paper withBorder p="lg" radius="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            {t('indexation.values_title')}
          </Title>
          {shown.pages > 1 && (
            <Pagination
              size="sm"
              total={shown.pages}
              value={Math.min(page, shown.pages)}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': t(`grid.page_${control}`) })}
            />
          )}
        </Group>
        <Table striped highlightOnHover data-testid="index-values" maw={560}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('indexation.month')}</Table.Th>
              <Table.Th ta="right">{t('indexation.value')}</Table.Th>
              <Table.Th ta="right">{t('indexation.year_change')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.rows.map((r) => (
              <Table.Tr key={r.month}>
                <Table.Td>
                  {formatMonth(r.month, lang)}{' '}
                  <Text span c="dimmed" size="xs">
                    ({r.month})
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatNumber(r.value, lang, 4)}
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }} c={r.yearChange === null ? 'dimmed' : undefined}>
                  {r.yearChange === null ? '–' : `${r.yearChange > 0 ? '+' : ''}${formatNumber(r.yearChange, lang, 1)} %`}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>

      {canImport && <ImportModal id={seriesId} opened={importing} onClose={() => setImporting(false)} />}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={500}>{value}</Text>
    </Stack>
  );
}

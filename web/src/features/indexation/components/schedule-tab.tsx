import '@mantine/dates/styles.css';
import { Alert, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { DatesProvider, MonthPickerInput } from '@mantine/dates';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { useSchedule } from '../api/indexation';
import { defaultScheduleRange, failureDetail, formatMoney, formatMonth, scheduleYears } from '../model/logic';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A contract's payment schedule month by month with a total per year (GET /contracts/{id}/schedule); this year and the next by default. */
export function ScheduleTab({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [range, setRange] = useState(defaultScheduleRange);
  const valid = MONTH.test(range.from) && MONTH.test(range.to) && range.from <= range.to;
  const schedule = useSchedule(Number(id), range.from, range.to, valid);
  const years = scheduleYears(schedule.data);
  const empty = years.every((y) => y.months.every((m) => (m.payments ?? []).length === 0));

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end">
        <DatesProvider settings={{ locale: lang }}>
          <MonthPickerInput
            label={t('indexation.from')}
            value={`${range.from}-01`}
            valueFormat="MMMM YYYY"
            onChange={(v) => v && setRange((r) => ({ ...r, from: String(v).slice(0, 7) }))}
            w={190}
          />
          <MonthPickerInput
            label={t('indexation.to')}
            value={`${range.to}-01`}
            valueFormat="MMMM YYYY"
            minDate={`${range.from}-01`}
            onChange={(v) => v && setRange((r) => ({ ...r, to: String(v).slice(0, 7) }))}
            error={valid ? undefined : t('indexation.bad_range')}
            w={190}
          />
        </DatesProvider>
      </Group>
      {!valid ? null : schedule.isPending ? (
        <Loader size="sm" />
      ) : schedule.isError ? (
        <Alert color="red">{failureDetail(schedule.error) ?? t('general.error')}</Alert>
      ) : empty ? (
        <Text c="dimmed" size="sm" ta="center" py="md">
          {t('indexation.schedule_empty')}
        </Text>
      ) : (
        <Table withTableBorder verticalSpacing={4} data-testid="schedule-table" maw={900}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={140}>{t('indexation.month')}</Table.Th>
              <Table.Th>{t('indexation.payments_due')}</Table.Th>
              <Table.Th ta="right" w={160}>
                {t('indexation.month_total')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {years.map((y) => (
              <Fragment key={y.year}>
                {y.months.map((m) => (
                  <Table.Tr key={m.month}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMonth(m.month, lang)}</Table.Td>
                    <Table.Td>
                      {(m.payments ?? []).length === 0 ? (
                        <Text size="sm" c="dimmed">
                          –
                        </Text>
                      ) : (
                        (m.payments ?? []).map((p) => (
                          <Group key={`${p.recurringpayment_id}-${p.due_date}`} gap="xs" justify="space-between" wrap="nowrap">
                            <Text size="sm">
                              {p.recurringpayment_name}{' '}
                              <Text span size="xs" c="dimmed">
                                {t('indexation.due_on', { date: formatDate(p.due_date, lang) })}
                              </Text>
                            </Text>
                            <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                              {formatMoney(p.amount, lang)}
                            </Text>
                          </Group>
                        ))
                      )}
                    </Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatMoney(m.total, lang)}
                    </Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr bg="var(--mantine-color-default-hover)" data-testid={`schedule-year-${y.year}`}>
                  <Table.Td colSpan={2} fw={700}>
                    {t('indexation.year_total', { year: y.year })}
                  </Table.Td>
                  <Table.Td ta="right" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatMoney(y.total, lang)}
                  </Table.Td>
                </Table.Tr>
              </Fragment>
            ))}
          </Table.Tbody>
          {schedule.data && (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Td colSpan={2} fw={700}>
                  {t('indexation.range_total', { from: formatMonth(range.from, lang), to: formatMonth(range.to, lang) })}
                </Table.Td>
                <Table.Td ta="right" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="schedule-total">
                  {formatMoney(schedule.data.total, lang)}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      )}
    </Stack>
  );
}

import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../../lib/ability-context';
import type { FilterNode } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { useAdjustments, useRunEvaluation } from '../api/indexation';
import { failureDetail } from '../model/logic';
import type { RunAnswer } from '../model/types';
import { AdjustmentTable } from './adjustment-table';
import { RunResult } from './run-result';

/** The recurring payment's index adjustments (its chain, oldest first) with the decisions, the letters and a run for this payment. */
export function PaymentAdjustmentsTab({ id, row }: { id: string; row: Row }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const filter = useMemo<FilterNode[]>(() => [{ field: 'recurringpayment_id', op: 'eq', value: Number(id) }], [id]);
  const list = useAdjustments(filter);
  const run = useRunEvaluation();
  const [answer, setAnswer] = useState<RunAnswer | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const indexed = Number(row.recurringpayment_value_deposit) === 1 && Boolean(row.indexclause_id);
  const start = () => {
    setAnswer(null);
    setRunError(null);
    run.mutate([Number(id)], {
      onSuccess: setAnswer,
      onError: (error) => setRunError(failureDetail(error) ?? t('general.error')),
    });
  };
  const rows = list.data ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {indexed ? t('indexation.chain_help') : t('indexation.not_indexed')}
        </Text>
        {indexed && ability.can('create', 'indexadjustment') && (
          <Button size="xs" variant="light" leftSection={<IconPlayerPlay size={14} />} onClick={start} loading={run.isPending}>
            {t('indexation.run_payment')}
          </Button>
        )}
      </Group>
      <RunResult
        answer={answer}
        error={runError}
        onClose={() => {
          setAnswer(null);
          setRunError(null);
        }}
      />
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <Text c="red">{failureDetail(list.error) ?? t('general.error')}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed" size="sm" ta="center" py="md">
          {t('indexation.no_adjustments')}
        </Text>
      ) : (
        <AdjustmentTable rows={rows} />
      )}
    </Stack>
  );
}

import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../../lib/ability-context';
import type { FilterNode } from '../../../lib/data-provider';
import { useAdjustments, useRunEvaluation } from '../api/indexation';
import { byPayment, failureDetail } from '../model/logic';
import type { RunAnswer } from '../model/types';
import { AdjustmentTable } from './adjustment-table';
import { RunResult } from './run-result';

const PROPOSED: FilterNode[] = [{ field: 'indexadjustment_status', op: 'eq', value: 'proposed' }];

/** /app/index-adjustments: every open rent adjustment proposal of the caller's portfolio, and the evaluation run. */
export default function ProposalsPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const list = useAdjustments(PROPOSED);
  const run = useRunEvaluation();
  const [answer, setAnswer] = useState<RunAnswer | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const canRun = ability.can('create', 'indexadjustment');
  const start = () => {
    setAnswer(null);
    setRunError(null);
    run.mutate(undefined, {
      onSuccess: setAnswer,
      onError: (error) => setRunError(failureDetail(error) ?? t('general.error')),
    });
  };
  // Each payment's chain together, in its order.
  const rows = useMemo(() => byPayment(list.data ?? []), [list.data]);

  return (
    <Stack gap="md" maw={1400}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('indexation.proposals_title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('indexation.proposals_help')}
          </Text>
        </Stack>
        {canRun && (
          <Button leftSection={<IconPlayerPlay size={16} />} onClick={start} loading={run.isPending}>
            {t('indexation.run')}
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
      <Paper withBorder p="md" radius="md">
        {list.isPending ? (
          <Loader />
        ) : list.isError ? (
          <Text c="red">{failureDetail(list.error) ?? t('general.error')}</Text>
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" data-testid="no-proposals">
            {t('indexation.no_proposals')}
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed" mb="xs">
              {t('indexation.proposal_count', { count: rows.length })}
            </Text>
            <AdjustmentTable rows={rows} showPayment />
          </>
        )}
      </Paper>
    </Stack>
  );
}

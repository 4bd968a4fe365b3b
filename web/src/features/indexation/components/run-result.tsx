import { Alert, CloseButton, Group, List, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RunAnswer } from '../model/types';

/** What an evaluation run did: the proposals created, the payments evaluated, and the ones it could not evaluate. */
export function RunResult({ answer, error, onClose }: { answer: RunAnswer | null; error: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('indexation.run_failed')} data-testid="run-result">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Text size="sm">{error}</Text>
          <CloseButton size="sm" onClick={onClose} aria-label={t('indexation.close')} />
        </Group>
      </Alert>
    );
  }
  if (!answer) return null;
  const errors = answer.errors ?? [];
  return (
    <Alert
      // Blue, as the app's other notices: its title keeps the contrast AA asks for.
      color="blue"
      icon={errors.length ? <IconAlertTriangle size={18} /> : <IconCheck size={18} />}
      title={t('indexation.run_done')}
      data-testid="run-result"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm">
            {t('indexation.run_summary', {
              evaluated: t('indexation.run_evaluated', { count: answer.evaluated }),
              created: t('indexation.run_created', { count: answer.created }),
              open: t('indexation.run_open', { count: answer.proposals?.length ?? 0 }),
            })}
          </Text>
          {errors.length > 0 && (
            <>
              <Text size="sm" mt="xs" fw={600}>
                {t('indexation.run_errors', { count: errors.length })}
              </Text>
              <List size="sm" spacing={2}>
                {errors.map((e) => (
                  <List.Item key={`${e.recurringpayment_id}-${e.month ?? ''}`}>
                    {t('indexation.run_error_line', { id: e.recurringpayment_id, detail: e.detail })}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </div>
        <CloseButton size="sm" onClick={onClose} aria-label={t('indexation.close')} />
      </Group>
    </Alert>
  );
}

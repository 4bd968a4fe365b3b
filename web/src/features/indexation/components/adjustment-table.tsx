import { ActionIcon, Badge, Button, Group, Menu, ScrollArea, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCheck, IconFileTypePdf, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { downloadLetter, useDecideAdjustment, useExplanations } from '../api/indexation';
import { decisionFailure, failureDetail, formatMoney, formatMonth, formatNumber, isNextInChain } from '../model/logic';
import type { Adjustment, AdjustmentStatus, Explanation } from '../model/types';

const STATUS_COLOR: Record<AdjustmentStatus, string> = { proposed: 'yellow', approved: 'green', rejected: 'gray' };
/** The letter's languages. */
export const LETTER_LANGUAGES = ['de', 'fr', 'en'] as const;

/**
 * Index adjustments as a table: the change from the reference month to the
 * current month, old and new amount, the effective date and the status; per
 * proposal Approve and Reject behind a confirmation (for users who may
 * update adjustments), and the letter in de, fr or en.
 */
export function AdjustmentTable({ rows, showPayment }: { rows: Adjustment[]; showPayment?: boolean }) {
  // The open proposals list names the payment and needs no status (all are proposed); a payment's chain shows the status.
  const showStatus = !showPayment;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAbility();
  const canDecide = ability.can('update', 'indexadjustment');
  const decide = useDecideAdjustment();
  const [downloading, setDownloading] = useState<number | null>(null);
  const ids = useMemo(() => rows.map((r) => r.indexadjustment_id), [rows]);
  const explanations = useExplanations(ids);

  const ask = (adj: Adjustment, decision: 'approve' | 'reject') => {
    const payment = adj.recurringpayment_id__label ?? `#${adj.recurringpayment_id}`;
    const figures = {
      payment,
      old: formatMoney(adj.indexadjustment_old_amount, lang),
      new: formatMoney(adj.indexadjustment_new_amount, lang),
      date: formatDate(adj.indexadjustment_effective_date, lang),
    };
    modals.openConfirmModal({
      title: t(decision === 'approve' ? 'indexation.approve_title' : 'indexation.reject_title'),
      centered: true,
      children: (
        <Text size="sm">{t(decision === 'approve' ? 'indexation.approve_confirm' : 'indexation.reject_confirm', figures)}</Text>
      ),
      labels: { confirm: t(decision === 'approve' ? 'indexation.approve' : 'indexation.reject'), cancel: t('form.cancel') },
      confirmProps: { color: decision === 'approve' ? undefined : 'red', 'data-autofocus': true },
      onConfirm: () =>
        decide.mutate(
          { id: adj.indexadjustment_id, decision },
          {
            onSuccess: () => notifySuccess(t(decision === 'approve' ? 'indexation.approved_done' : 'indexation.rejected_done', figures)),
            onError: (error) => {
              const detail = failureDetail(error) ?? t('general.error');
              if (decisionFailure(error) === 'conflict') notifyError(detail, t('indexation.conflict_title'));
              else notifyError(detail);
            },
          },
        ),
    });
  };

  const letter = async (id: number, l: string) => {
    setDownloading(id);
    try {
      await downloadLetter(id, l);
    } catch (error) {
      notifyError(failureDetail(error) ?? t('general.error'), t('indexation.letter_failed'));
    } finally {
      setDownloading(null);
    }
  };

  if (rows.length === 0) return null;
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={8} miw={1040} data-testid="adjustment-table">
        <Table.Thead>
          <Table.Tr>
            {showPayment && <Table.Th>{t('indexation.payment')}</Table.Th>}
            <Table.Th>{t('indexation.index_months')}</Table.Th>
            <Table.Th ta="right">{t('indexation.change')}</Table.Th>
            <Table.Th ta="right">{t('indexation.new_amount')}</Table.Th>
            <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('indexation.effective')}</Table.Th>
            <Table.Th>{t('indexation.rule')}</Table.Th>
            {showStatus && <Table.Th>{t('indexation.status')}</Table.Th>}
            <Table.Th ta="right">{t('indexation.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((adj) => {
            const next = isNextInChain(adj, rows);
            const pct = Number(adj.indexadjustment_change_percent);
            return (
              <Table.Tr key={adj.indexadjustment_id} data-testid={`adjustment-${adj.indexadjustment_id}`}>
                {showPayment && (
                  <Table.Td maw={220}>
                    <Link to={`/app/table/recurringpayment/view/${adj.recurringpayment_id}?tab=adjustments`}>
                      {adj.recurringpayment_id__label ?? `#${adj.recurringpayment_id}`}
                    </Link>
                    {adj.indexclause_id__label && (
                      <Text size="xs" c="dimmed">
                        {adj.indexclause_id__label}
                      </Text>
                    )}
                  </Table.Td>
                )}
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatMonth(adj.indexadjustment_reference_month, lang)} → {formatMonth(adj.indexadjustment_current_month, lang)}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatNumber(adj.indexadjustment_reference_value, lang, 2)} → {formatNumber(adj.indexadjustment_current_value, lang, 2)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  <Text size="sm" c={pct < 0 ? 'red' : undefined}>
                    {pct > 0 ? '+' : ''}
                    {formatNumber(pct, lang, 2)} %
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('indexation.points', { value: formatNumber(adj.indexadjustment_change_points, lang, 2) })}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  <Text size="sm" fw={600}>
                    {formatMoney(adj.indexadjustment_new_amount, lang)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('indexation.was', { amount: formatMoney(adj.indexadjustment_old_amount, lang) })}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(adj.indexadjustment_effective_date, lang)}</Table.Td>
                <Table.Td maw={320}>
                  <RuleText explanation={explanations.data?.get(adj.indexadjustment_id)} />
                </Table.Td>
                {showStatus && (
                  <Table.Td>
                    <Badge
                      color={STATUS_COLOR[adj.indexadjustment_status] ?? 'gray'}
                      variant="light"
                      tt="none"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {t(`indexation.status_${adj.indexadjustment_status}`)}
                    </Badge>
                  </Table.Td>
                )}
                <Table.Td>
                  <Group gap={6} justify="flex-end" wrap="nowrap">
                    {canDecide && adj.indexadjustment_status === 'proposed' && (
                      <>
                        <Tooltip label={t('indexation.not_next')} disabled={next} withArrow>
                          <Button
                            size="compact-xs"
                            variant="filled"
                            leftSection={<IconCheck size={14} />}
                            onClick={() => ask(adj, 'approve')}
                          >
                            {t('indexation.approve')}
                          </Button>
                        </Tooltip>
                        <Button
                          size="compact-xs"
                          color="red"
                          variant="subtle"
                          leftSection={<IconX size={14} />}
                          onClick={() => ask(adj, 'reject')}
                        >
                          {t('indexation.reject')}
                        </Button>
                      </>
                    )}
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <Tooltip label={t('indexation.letter')} withArrow>
                          <ActionIcon
                            variant="default"
                            size="md"
                            aria-label={t('indexation.letter')}
                            loading={downloading === adj.indexadjustment_id}
                          >
                            <IconFileTypePdf size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Label>{t('indexation.letter')}</Menu.Label>
                        {LETTER_LANGUAGES.map((l) => (
                          <Menu.Item key={l} onClick={() => void letter(adj.indexadjustment_id, l)}>
                            {t(`indexation.letter_${l}`)}
                          </Menu.Item>
                        ))}
                      </Menu.Dropdown>
                    </Menu>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** The rule that produced an adjustment, in words, with the warning it carries (an upward-only clause may be void). */
function RuleText({ explanation }: { explanation?: Explanation }) {
  if (!explanation) return null;
  return (
    <>
      <Text size="xs" data-testid="adjustment-rule">
        {explanation.text}
      </Text>
      {explanation.warning && (
        <Group gap={4} wrap="nowrap" align="flex-start" mt={2}>
          <IconAlertTriangle size={14} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} aria-hidden />
          <Text size="xs" c="orange.8" data-testid="adjustment-warning">
            {explanation.warning}
          </Text>
        </Group>
      )}
    </>
  );
}

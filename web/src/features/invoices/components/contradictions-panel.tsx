import { Anchor, Badge, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Row } from '../../../lib/table-definition';
import type { InvoiceContradiction } from '../api/get-invoice';
import { isRule } from '../model/labels';
import { formatAmount, truthy } from '../model/review';
import { AddToPackage } from './add-to-package';

/** The traffic-light thresholds of a point (claim or accommodation), shown beside its claim to guide the negotiation. */
function Lights({ point, kind, lang }: { point: Row; kind: 'claim' | 'accommodation'; lang: string }) {
  const { t } = useTranslation();
  const colors = ['green', 'yellow', 'red'] as const;
  const set = colors.filter((c) => point[`contradictionpoint_max_${kind}_${c}`] !== null && point[`contradictionpoint_max_${kind}_${c}`] !== undefined);
  if (set.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" aria-label={t(`invoices.max_${kind}`)}>
      {set.map((c) => (
        <Badge key={c} size="xs" color={c === 'yellow' ? 'yellow.6' : c} variant="light" title={t(`invoices.max_${kind}`)}>
          {formatAmount(point[`contradictionpoint_max_${kind}_${c}`], lang)}
        </Badge>
      ))}
    </Group>
  );
}

/** The contradictions of an invoice, each with its points, their claims, the landlord's accepted amounts and the traffic lights. */
export function ContradictionsPanel({ contradictions, posId }: { contradictions: InvoiceContradiction[]; posId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  if (contradictions.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="no-contradictions">
        {t('invoices.no_contradictions')}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {contradictions.map((c) => (
        <Paper key={c.contradiction_id} withBorder p="sm" radius="sm" data-testid={`contradiction-${c.contradiction_id}`}>
          <Group justify="space-between" mb="xs" wrap="wrap">
            <Group gap="sm">
              <Title order={4} size="h5">
                <Anchor component={Link} to={`/app/table/contradiction/view/${c.contradiction_id}`}>
                  {String(c.contradiction_name ?? `#${c.contradiction_id}`)}
                </Anchor>
              </Title>
              {c.contradictionpackage_id ? (
                <Badge
                  variant="light"
                  component={Link}
                  to={`/app/table/custom/contracdictionpackage/view/${String(c.contradictionpackage_id)}`}
                  style={{ cursor: 'pointer' }}
                >
                  {t('invoices.in_package', { name: String(c.contradictionpackage_id__label ?? c.contradictionpackage_id) })}
                </Badge>
              ) : (
                <>
                  <Badge variant="outline" color="gray">
                    {t('invoices.no_package')}
                  </Badge>
                  <AddToPackage
                    contradiction={{
                      id: c.contradiction_id,
                      name: String(c.contradiction_name ?? `#${c.contradiction_id}`),
                      rowVersion: typeof c.row_version === 'number' ? c.row_version : null,
                    }}
                    posId={posId}
                  />
                </>
              )}
            </Group>
            <Text size="sm" fw={600} data-testid="contradiction-sum">
              {t('invoices.contradiction_sum', { count: c.points.length, sum: formatAmount(c.contradiction_sum, lang) })}
            </Text>
          </Group>
          <ScrollArea type="auto">
            <Table withRowBorders verticalSpacing={6} miw={900} aria-label={String(c.contradiction_name ?? '')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('invoices.point')}</Table.Th>
                  <Table.Th>{t('invoices.rule_label')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.claim')}</Table.Th>
                  <Table.Th>{t('invoices.max_claim')}</Table.Th>
                  <Table.Th>{t('invoices.max_accommodation')}</Table.Th>
                  <Table.Th ta="right">{t('invoices.accepted')}</Table.Th>
                  <Table.Th>{t('invoices.legally_clear')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {c.points.map((p) => {
                  const rule = typeof p.contradictionpoint_rule === 'string' ? p.contradictionpoint_rule : null;
                  // A generated point without a claim is a warning (decision 0061): a question to the landlord.
                  const warning = rule !== null && Number(p.contradictionpoint_claim ?? 0) === 0 && !truthy(p.legally_clear);
                  return (
                    <Table.Tr key={String(p.contradictionpoint_id)} data-testid="contradiction-point" opacity={truthy(p.hidden) ? 0.5 : 1}>
                      <Table.Td>
                        <Anchor component={Link} to={`/app/table/contradictionpoint/view/${String(p.contradictionpoint_id)}`} size="sm">
                          {String(p.contradictionpoint_title ?? `#${String(p.contradictionpoint_id)}`)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Badge
                          size="sm"
                          variant="light"
                          color={warning ? 'yellow' : rule ? 'orange' : 'grape'}
                          tt="none"
                          h="auto"
                          // The rules' names are long ("Administration costs above the cap"): they wrap, not cut.
                          styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                        >
                          {isRule(rule) ? t(`invoices.rule.${rule}`) : t('invoices.manual_point')}
                        </Badge>
                        {warning && (
                          <Text size="xs" c="dimmed" data-testid="point-warning">
                            {t('invoices.rule_warning')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right" fw={600}>
                        {formatAmount(p.contradictionpoint_claim, lang)}
                      </Table.Td>
                      <Table.Td>
                        <Lights point={p} kind="claim" lang={lang} />
                      </Table.Td>
                      <Table.Td>
                        <Lights point={p} kind="accommodation" lang={lang} />
                      </Table.Td>
                      <Table.Td ta="right">{formatAmount(p.contradictionpoint_accepted, lang)}</Table.Td>
                      <Table.Td>{truthy(p.legally_clear) ? t('grid.yes') : t('grid.no')}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Paper>
      ))}
    </Stack>
  );
}

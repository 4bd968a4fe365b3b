import { Anchor, Badge, Checkbox, Group, ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Row } from '../../../lib/table-definition';
import { formatAmount, sumCents } from '../model/review';

interface PickerProps {
  rows: Row[];
  picked: Set<number>;
  onToggle: (id: number, on: boolean) => void;
  /** The package being edited: its own contradictions are not "in another package". */
  packageId?: number;
}

/** The contradictions of a point of sale to pick for a package, with the count and sum of the picked ones. */
export function ContradictionPicker({ rows, picked, onToggle, packageId }: PickerProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const chosen = rows.filter((r) => picked.has(Number(r.contradiction_id)));
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {t('invoices.pos_no_contradictions')}
      </Text>
    );
  }
  return (
    <>
      <ScrollArea type="auto">
        <Table withTableBorder striped verticalSpacing="xs" aria-label={t('invoices.pick_contradictions')} miw={640}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              <Table.Th>{t('invoices.contradiction')}</Table.Th>
              <Table.Th>{t('invoices.invoice')}</Table.Th>
              <Table.Th ta="right">{t('invoices.points')}</Table.Th>
              <Table.Th ta="right">{t('invoices.sum')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const id = Number(r.contradiction_id);
              const other = r.contradictionpackage_id && Number(r.contradictionpackage_id) !== packageId ? r : null;
              const name = String(r.contradiction_name ?? `#${id}`);
              return (
                <Table.Tr key={id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={name}
                      checked={picked.has(id)}
                      disabled={Boolean(other)}
                      onChange={(e) => onToggle(id, e.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/app/table/contradiction/view/${id}`} size="sm">
                        {name}
                      </Anchor>
                      {other && (
                        <Badge size="xs" variant="outline" color="gray">
                          {t('invoices.in_package', { name: String(other.contradictionpackage_id__label ?? other.contradictionpackage_id) })}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/table/invoice/view/${String(r.invoice_id)}`} size="sm">
                      {String(r.invoice_id__label ?? r.invoice_id)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{String(r.contradiction_point_count ?? 0)}</Table.Td>
                  <Table.Td ta="right">{formatAmount(r.contradiction_sum, lang)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Text size="sm" fw={600} data-testid="picked-summary">
        {t('invoices.picked', { count: chosen.length, sum: formatAmount(sumCents(chosen.map((r) => r.contradiction_sum)), lang) })}
      </Text>
    </>
  );
}

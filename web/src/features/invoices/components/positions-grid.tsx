import { Anchor, Badge, Group, ScrollArea, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { ApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { DECIMAL_PLACES } from '../../../lib/numbers';
import type { Row, TableDefinition } from '../../../lib/table-definition';
import { UnparsedInput } from '../../../lib/validation';
import { toastError } from '../../tables/components/table-errors';
import type { InvoiceSums } from '../api/get-invoice';
import { useUpdatePosition } from '../api/update-position';
import { fieldLabel, isRule } from '../model/labels';
import { type Finding, formatAmount, formatUnits, truthy } from '../model/review';

interface PositionsGridProps {
  invoiceId: number;
  positions: Row[];
  sums: InvoiceSums;
  findings: Map<number, Finding[]>;
  def: TableDefinition | undefined;
  canUpdate: boolean;
}

/**
 * The positions of an invoice: flat rate and apportionable switched inline
 * and the customer's units edited inline through the generic field update
 * ('Value updated'; the server's refusal shows on the field), the points
 * found on each position beside it, the sums in the footer.
 */
export function PositionsGrid({ invoiceId, positions, sums, findings, def, canUpdate }: PositionsGridProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = (f: string) => fieldLabel(def, f);
  if (positions.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {t('invoices.no_positions')}
      </Text>
    );
  }
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover withTableBorder verticalSpacing="xs" aria-label={t('invoices.positions')} miw={1000}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{label('invoiceposition_name')}</Table.Th>
            <Table.Th>{label('costtype_id')}</Table.Th>
            <Table.Th>{label('externalcosttype_id')}</Table.Th>
            <Table.Th ta="right">{label('total_units')}</Table.Th>
            <Table.Th ta="right">{label('units_customer')}</Table.Th>
            <Table.Th ta="right">{label('amount_total')}</Table.Th>
            <Table.Th ta="right">{label('amount_customer')}</Table.Th>
            <Table.Th>{label('flat_rate')}</Table.Th>
            <Table.Th>{label('apportionable')}</Table.Th>
            <Table.Th>{t('invoices.findings')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {positions.map((p) => (
            <PositionRow
              key={String(p.invoiceposition_id)}
              invoiceId={invoiceId}
              row={p}
              findings={findings.get(Number(p.invoiceposition_id)) ?? []}
              label={label}
              canUpdate={canUpdate}
            />
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="positions-sums">
            <Table.Th colSpan={5}>{t('invoices.sum_positions', { count: sums.positions })}</Table.Th>
            <Table.Th ta="right" data-testid="sum-amount-total">
              {formatAmount(sums.amount_total, lang)}
            </Table.Th>
            <Table.Th ta="right" data-testid="sum-amount-customer">
              {formatAmount(sums.amount_customer, lang)}
            </Table.Th>
            <Table.Th colSpan={3} />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

function PositionRow({
  invoiceId,
  row,
  findings,
  label,
  canUpdate,
}: {
  invoiceId: number;
  row: Row;
  findings: Finding[];
  label: (f: string) => string;
  canUpdate: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const update = useUpdatePosition();
  const id = Number(row.invoiceposition_id);
  const name = String(row.invoiceposition_name ?? `#${id}`);
  const [unitsError, setUnitsError] = useState<string | null>(null);
  // The units as typed: a number, null, or a text that is no number (kept, with its message, and not saved).
  const [units, setUnits] = useState<unknown>(row.units_customer ?? null);
  const rowVersion = Number(row.row_version ?? 0) || null;

  const save = (field: 'flat_rate' | 'apportionable' | 'units_customer', value: number | null, onFieldError?: (msg: string) => void) =>
    update.mutate(
      { invoiceId, positionId: id, field, value, rowVersion },
      {
        onSuccess: () => notifySuccess(t('grid.value_updated')),
        onError: (error) => {
          const msg = error instanceof ApiError && error.status === 422 ? (error.fieldErrors()[field] ?? null) : null;
          if (msg && onFieldError) onFieldError(msg);
          else toastError(error);
        },
      },
    );

  const saveUnits = () => {
    if (units instanceof UnparsedInput) return setUnitsError(t(units.messageKey, units.vars));
    const next = units === null || units === '' ? null : Number(units);
    const before = row.units_customer === null || row.units_customer === undefined ? null : Number(row.units_customer);
    if (next === before) return;
    setUnitsError(null);
    save('units_customer', next, setUnitsError);
  };

  return (
    <Table.Tr data-testid={`position-${id}`}>
      <Table.Td>
        <Anchor component={Link} to={`/app/table/invoiceposition/view/${id}`} size="sm">
          {name}
        </Anchor>
      </Table.Td>
      <Table.Td>{String(row.costtype_id__label ?? '–')}</Table.Td>
      <Table.Td>{String(row.externalcosttype_id__label ?? '–')}</Table.Td>
      <Table.Td ta="right">
        {formatUnits(row.total_units, lang)} {row.unit_id__label ? <Text span c="dimmed" size="xs">{String(row.unit_id__label)}</Text> : null}
      </Table.Td>
      <Table.Td ta="right">
        {canUpdate ? (
          <NumberTextInput
            size="xs"
            w={96}
            decimals={DECIMAL_PLACES}
            aria-label={`${label('units_customer')}: ${name}`}
            value={units}
            onChange={(v) => {
              setUnits(v);
              setUnitsError(null);
            }}
            onBlur={saveUnits}
            onKeyDown={(e) => {
              if (e.key === 'Enter') saveUnits();
            }}
            error={unitsError}
            disabled={update.isPending}
          />
        ) : (
          formatUnits(row.units_customer, lang)
        )}
      </Table.Td>
      <Table.Td ta="right">{formatAmount(row.amount_total, lang)}</Table.Td>
      <Table.Td ta="right">{formatAmount(row.amount_customer, lang)}</Table.Td>
      <Table.Td>
        <Switch
          aria-label={`${label('flat_rate')}: ${name}`}
          checked={truthy(row.flat_rate)}
          disabled={!canUpdate || update.isPending}
          onChange={(e) => save('flat_rate', e.currentTarget.checked ? 1 : 0)}
        />
      </Table.Td>
      <Table.Td>
        <Switch
          aria-label={`${label('apportionable')}: ${name}`}
          checked={truthy(row.apportionable)}
          disabled={!canUpdate || update.isPending}
          onChange={(e) => save('apportionable', e.currentTarget.checked ? 1 : 0)}
        />
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {findings.map((f) => (
            <Tooltip key={f.pointId} label={f.title} withArrow multiline maw={320}>
              <Group gap={4} wrap="nowrap">
                <Badge size="sm" variant="light" color={f.rule ? 'orange' : 'grape'}>
                  {isRule(f.rule) ? t(`invoices.rule.${f.rule}`) : t('invoices.manual_point')}
                </Badge>
                {f.claim !== null && <Text size="xs">{formatAmount(f.claim, lang)}</Text>}
              </Group>
            </Tooltip>
          ))}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Row, TableDefinition } from '../../../lib/table-definition';

/** True when the contract is resiliated (contract_resiliation 1); 0 or empty is pending. */
export function isResiliated(row: Row): boolean {
  const v = row.contract_resiliation;
  return v === 1 || v === '1' || v === true;
}

/**
 * The contract's resiliation state as a badge beside its title: the served
 * option label (Pending / Terminated): light blue while pending, dark once
 * resiliated (both readable in either skin).
 */
export function ResiliationBadge({ row, def }: { row: Row; def: TableDefinition }) {
  const { t } = useTranslation();
  const resiliated = isResiliated(row);
  const attr = def.attributes.find((a) => a.attribute === 'contract_resiliation');
  const option = attr?.options?.find((o) => Number(o.value) === (resiliated ? 1 : 0));
  const label = option?.label ?? (resiliated ? t('contracts.resiliation.resiliated') : t('contracts.resiliation.pending'));
  return (
    <Badge
      variant={resiliated ? 'filled' : 'light'}
      color={resiliated ? 'dark' : 'blue'}
      size="lg"
      data-testid="contract-resiliation"
      aria-label={t('contracts.resiliation.aria', { state: label })}
    >
      {label}
    </Badge>
  );
}

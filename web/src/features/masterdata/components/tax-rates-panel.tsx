import { ActionIcon, Alert, Button, Card, Group, Loader, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreateTaxRate, useDeleteTaxRates, useTaxRates } from '../api/tax-rates';

/** The tax rates tab of a company: administrators list, add and delete them; anyone else is told they may not. */
export default function TaxRatesPanel({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const rates = useTaxRates(companyId, true);
  const refused = rates.error instanceof ApiError && rates.error.status === 403;
  return (
    <Card withBorder mt="md" data-testid="tax-rates">
      <Title order={4} mb="sm">
        {t('masterdata.tax_rates.title')}
      </Title>
      {refused ? (
        <Alert color="yellow">{errorMessage(rates.error)}</Alert>
      ) : rates.isError ? (
        <Alert color="red">{t('masterdata.load_error')}</Alert>
      ) : rates.isPending ? (
        <Loader size="sm" aria-label={t('general.loading')} />
      ) : (
        <Stack gap="sm">
          <TaxRateTable companyId={companyId} rows={rates.data?.data ?? []} />
          <TaxRateForm companyId={companyId} />
        </Stack>
      )}
    </Card>
  );
}

function TaxRateTable({ companyId, rows }: { companyId: number; rows: { taxrate_id: number; taxrate_code: string; taxrate_value: number }[] }) {
  const { t } = useTranslation();
  const remove = useDeleteTaxRates(companyId);
  if (rows.length === 0)
    return (
      <Text c="dimmed" data-testid="empty-state">
        {t('masterdata.tax_rates.empty')}
      </Text>
    );
  const onDelete = (r: { taxrate_id: number; taxrate_code: string }) =>
    modals.openConfirmModal({
      title: t('masterdata.tax_rates.delete_title'),
      children: <Text size="sm">{t('masterdata.tax_rates.delete_confirm', { code: r.taxrate_code })}</Text>,
      labels: { confirm: t('masterdata.tax_rates.delete'), cancel: t('form.cancel') },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () =>
        remove.mutate([r.taxrate_id], {
          onSuccess: () => notifySuccess(t('masterdata.tax_rates.deleted')),
          onError: (e) => notifyError(errorMessage(e)),
        }),
    });
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('masterdata.tax_rates.code')}</Table.Th>
          <Table.Th>{t('masterdata.tax_rates.value')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.taxrate_id}>
            <Table.Td>{r.taxrate_code}</Table.Td>
            <Table.Td>{r.taxrate_value} %</Table.Td>
            <Table.Td>
              <ActionIcon variant="subtle" color="red" aria-label={`${t('masterdata.tax_rates.delete')} ${r.taxrate_code}`} onClick={() => onDelete(r)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function TaxRateForm({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const create = useCreateTaxRate(companyId);
  const [code, setCode] = useState('');
  const [value, setValue] = useState<number | string>('');
  const submit = () =>
    create.mutate(
      { taxrate_code: code.trim(), taxrate_value: Number(value) },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.tax_rates.saved'));
          setCode('');
          setValue('');
        },
        onError: (e) => notifyError(errorMessage(e)),
      },
    );
  return (
    <Group align="end">
      <TextInput label={t('masterdata.tax_rates.code')} value={code} onChange={(e) => setCode(e.currentTarget.value)} maxLength={50} />
      <NumberInput label={t('masterdata.tax_rates.value')} value={value} onChange={setValue} min={0} max={100} decimalScale={4} />
      <Button onClick={submit} loading={create.isPending} disabled={!code.trim() || value === ''}>
        {t('masterdata.tax_rates.add')}
      </Button>
    </Group>
  );
}

import { ActionIcon, Alert, Button, Card, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { DECIMAL_PLACES, formatNumberInput } from '../../../lib/numbers';
import { UnparsedInput } from '../../../lib/validation';
import { type TaxRate, useCreateTaxRate, useDeleteTaxRates, useTaxRates, useUpdateTaxRate } from '../api/tax-rates';

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

function TaxRateTable({ companyId, rows }: { companyId: number; rows: TaxRate[] }) {
  const { t, i18n } = useTranslation();
  const remove = useDeleteTaxRates(companyId);
  const [editing, setEditing] = useState<number | null>(null);
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
        {rows.map((r) =>
          editing === r.taxrate_id ? (
            <TaxRateEditRow key={r.taxrate_id} companyId={companyId} rate={r} onDone={() => setEditing(null)} />
          ) : (
            <Table.Tr key={r.taxrate_id}>
              <Table.Td>{r.taxrate_code}</Table.Td>
              <Table.Td>{formatNumberInput(r.taxrate_value, i18n.language)} %</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`${t('masterdata.tax_rates.edit')} ${r.taxrate_code}`} onClick={() => setEditing(r.taxrate_id)}>
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="red" aria-label={`${t('masterdata.tax_rates.delete')} ${r.taxrate_code}`} onClick={() => onDelete(r)}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ),
        )}
      </Table.Tbody>
    </Table>
  );
}

/** One rate changed in place (PUT); Enter saves, Escape cancels; a 422 marks its field. */
function TaxRateEditRow({ companyId, rate, onDone }: { companyId: number; rate: TaxRate; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateTaxRate(companyId);
  const [code, setCode] = useState(rate.taxrate_code);
  // A number, null, or a typed text that is no number (kept as typed, refused with its message).
  const [value, setValue] = useState<unknown>(rate.taxrate_value);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invalid = !code.trim() || value === null;
  const save = () => {
    if (invalid) return;
    if (value instanceof UnparsedInput) return setErrors({ taxrate_value: t(value.messageKey, value.vars) });
    setErrors({});
    update.mutate(
      { taxrate_id: rate.taxrate_id, row_version: rate.row_version, taxrate_code: code.trim(), taxrate_value: Number(value) },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.tax_rates.saved'));
          onDone();
        },
        onError: (e) => {
          if (e instanceof ApiError && e.status === 422) setErrors(e.fieldErrors());
          notifyError(errorMessage(e), t('masterdata.tax_rates.save_error'));
        },
      },
    );
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onDone();
    }
  };
  return (
    <Table.Tr onKeyDown={onKeyDown}>
      <Table.Td>
        <TextInput size="xs" data-autofocus autoFocus aria-label={t('masterdata.tax_rates.code')} value={code} maxLength={50}
          onChange={(e) => setCode(e.currentTarget.value)} error={errors.taxrate_code} />
      </Table.Td>
      <Table.Td>
        <NumberTextInput size="xs" aria-label={t('masterdata.tax_rates.value')} value={value} onChange={setValue} decimals={DECIMAL_PLACES}
          error={errors.taxrate_value} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon variant="filled" aria-label={t('masterdata.tax_rates.save')} onClick={save} loading={update.isPending} disabled={invalid}>
            <IconCheck size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" aria-label={t('form.cancel')} onClick={onDone}>
            <IconX size={16} />
          </ActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function TaxRateForm({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const create = useCreateTaxRate(companyId);
  const [code, setCode] = useState('');
  const [value, setValue] = useState<unknown>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (value instanceof UnparsedInput) return setError(t(value.messageKey, value.vars));
    create.mutate(
      { taxrate_code: code.trim(), taxrate_value: Number(value) },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.tax_rates.saved'));
          setCode('');
          setValue(null);
        },
        onError: (e) => notifyError(errorMessage(e)),
      },
    );
  };
  return (
    <Group align="end">
      <TextInput label={t('masterdata.tax_rates.code')} value={code} onChange={(e) => setCode(e.currentTarget.value)} maxLength={50} />
      <NumberTextInput
        label={t('masterdata.tax_rates.value')}
        value={value}
        onChange={(v) => {
          setValue(v);
          setError(null);
        }}
        decimals={DECIMAL_PLACES}
        error={error}
      />
      <Button onClick={submit} loading={create.isPending} disabled={!code.trim() || value === null}>
        {t('masterdata.tax_rates.add')}
      </Button>
    </Group>
  );
}

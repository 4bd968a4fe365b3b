import '@mantine/dates/styles.css';
import { ActionIcon, Alert, Anchor, Breadcrumbs, Button, Checkbox, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FieldInput } from '../../../components/form/field-input';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { useRecordForm } from '../../../components/form/use-record-form';
import { ApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { DECIMAL_PLACES } from '../../../lib/numbers';
import { type AttributeDefinition, companionFields, embeddedFields, type TableDefinition } from '../../../lib/table-definition';
import { isRequiredNow, isVisible, isWritable } from '../../../lib/validation';
import { useDefinition } from '../../tables/api/get-definition';
import { DefinitionError } from '../../tables/components/table-common';
import { serverDetail } from '../../tables/components/table-errors';
import { useContractAreas, useCreateInvoice, useValueTypes } from '../api/create-invoice';
import {
  CONTRACT_FIELDS,
  createInvoiceBody,
  HEADER_FIELDS,
  invoiceFieldErrors,
  PERIOD_FIELDS,
  type ValueTypeRow,
  valueTypeErrors,
} from '../model/invoice-create';

/**
 * /app/table/invoice/create: the invoice create page of the specification
 * (portfolio document, section 2): the header, the billing period, the
 * contract with its areas (the contract's own areas to tick) and the value
 * types with their values. It saves in one call (POST /invoices: the
 * generic create and links, all or nothing) and then opens the invoice page.
 */
export default function InvoiceCreatePage() {
  const def = useDefinition('invoice');
  const contractDef = useDefinition('contract');
  if (def.isPending || contractDef.isPending) return <Loader m="xl" />;
  if (def.isError) return <DefinitionError table="invoice" error={def.error} />;
  // The contract's areas: its many-to-many relation to area (named 'area').
  const areasApi = contractDef.data?.relations.find((r) => r.target === 'area')?.api;
  return <InvoiceCreateForm def={def.data} areasApi={areasApi} />;
}

function InvoiceCreateForm({ def, areasApi }: { def: TableDefinition; areasApi: string | undefined }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const form = useRecordForm(def.attributes, 'create');
  const create = useCreateInvoice();
  const valueTypes = useValueTypes();
  const nextKey = useRef(1);
  const [rows, setRows] = useState<ValueTypeRow[]>([]);
  const [rowErrors, setRowErrors] = useState<Record<number, Record<string, string>>>({});
  // The ticked areas are the form's multi-select area_id (required by the definition).
  const areas = Array.isArray(form.values.area_id) ? (form.values.area_id as unknown[]).map(Number) : [];
  const setAreas = (ids: number[]) => form.setValue('area_id', ids);
  const contract = typeof form.values.contract_id === 'number' ? form.values.contract_id : null;
  const contractAreas = useContractAreas(areasApi, contract);
  const byName = new Map(def.attributes.map((a) => [a.attribute, a]));
  const hidden = new Set([...embeddedFields(def.attributes), ...companionFields(def.attributes)]);

  const field = (name: string) => {
    const attr = byName.get(name);
    if (!attr || hidden.has(name) || !isVisible(attr, form.values, form.env)) return null;
    const readOnly = !isWritable(attr, true);
    const unitAttr: AttributeDefinition | undefined = attr.unit ? byName.get(attr.unit.field) : undefined;
    return (
      <div key={name} style={attr.attribute_datatype_hint === 'textarea' ? { gridColumn: '1 / -1' } : undefined}>
        <FieldInput
          attr={attr}
          value={form.values[name]}
          onChange={(v) => {
            form.setValue(name, v);
            if (name === 'contract_id') setAreas([]);
          }}
          onBlur={() => form.touch(name)}
          error={form.errors[name]}
          required={!readOnly && isRequiredNow(attr, form.values, form.env)}
          readOnly={readOnly}
          values={form.values}
          unitAttr={unitAttr}
          unitError={unitAttr ? form.errors[unitAttr.attribute] : undefined}
          onUnitChange={unitAttr ? (v) => form.setValue(unitAttr.attribute, v) : undefined}
          attributes={def.attributes}
          setValue={form.setValue}
          entity="invoice"
        />
      </div>
    );
  };

  const setRow = (key: number, patch: Partial<ValueTypeRow>) => setRows((old) => old.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const sent = rows.filter((r) => r.invoicevaluetype_id !== null);
  const errorOf = (row: ValueTypeRow) => rowErrors[sent.indexOf(row)] ?? {};

  const save = () => {
    setRowErrors({});
    if (!form.validate()) return;
    const { area_id: _areas, ...data } = form.payload();
    create.mutate(createInvoiceBody(data, areas, rows), {
      onSuccess: ({ id }) => {
        form.markSaved();
        notifySuccess(t('invoices.invoice_created'));
        navigate(`/app/table/invoice/view/${id}`, { replace: true });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 422) {
          form.setServerErrors(invoiceFieldErrors(error.detail));
          setRowErrors(valueTypeErrors(error.detail));
        }
        notifyError(serverDetail(error));
      },
    });
  };

  const typeOptions = (valueTypes.data ?? []).map((v) => ({ value: String(v.invoicevaluetype_id), label: String(v.invoicevaluetype_name ?? v.invoicevaluetype_id) }));
  const areaRows = contractAreas.data ?? [];

  return (
    <DatesProvider settings={{ firstDayOfWeek: 1, locale: i18n.language }}>
      <Stack gap="md" maw={1100}>
        <Stack gap={4}>
          <Breadcrumbs>
            <Anchor component={Link} to="/app/table/invoice" size="sm">
              {t('table.invoice')}
            </Anchor>
            <span>{t('invoices.new_invoice')}</span>
          </Breadcrumbs>
          <Title order={1} size="h2">
            {t('invoices.new_invoice')}
          </Title>
        </Stack>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="invoice-header">
          <Title order={2} size="h4" mb="sm" id="invoice-header">
            {t('invoices.section_header')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {HEADER_FIELDS.map(field)}
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="invoice-period">
          <Title order={2} size="h4" mb="sm" id="invoice-period">
            {t('invoices.section_period')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {PERIOD_FIELDS.map(field)}
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="invoice-contract">
          <Title order={2} size="h4" mb="sm" id="invoice-contract">
            {t('invoices.section_contract')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {CONTRACT_FIELDS.map(field)}
            <div>
              {!contract && (
                <Text size="sm" c="dimmed">
                  {t('invoices.areas_pick_contract')}
                </Text>
              )}
              {contract && areasApi && contractAreas.isPending && <Loader size="sm" />}
              {contractAreas.isError && <Alert color="red">{serverDetail(contractAreas.error)}</Alert>}
              {contract && contractAreas.data && (
                <Checkbox.Group
                  label={byName.get('area_id')?.attribute_i18n ?? t('invoices.areas')}
                  value={areas.map(String)}
                  onChange={(v) => setAreas(v.map(Number))}
                  error={form.errors.area_id}
                >
                  <Stack gap={6} mt={6} data-testid="invoice-areas">
                    {areaRows.length === 0 && (
                      <Text size="sm" c="dimmed">
                        {t('invoices.contract_without_areas')}
                      </Text>
                    )}
                    {areaRows.map((a) => (
                      <Checkbox key={String(a.area_id)} value={String(a.area_id)} label={String(a.area_name ?? a.area_id__label ?? a.area_id)} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            </div>
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="invoice-value-types">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4" id="invoice-value-types">
              {t('invoices.section_value_types')}
            </Title>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setRows((old) => [...old, { key: nextKey.current++, invoicevaluetype_id: null, value: null }])}
            >
              {t('invoices.add_value_type')}
            </Button>
          </Group>
          <Stack gap="xs">
            {rows.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('invoices.no_value_types')}
              </Text>
            )}
            {rows.map((row, i) => (
              <Group key={row.key} align="flex-start" wrap="nowrap" data-testid={`value-type-${i}`}>
                <Select
                  style={{ flex: 2 }}
                  label={t('invoices.value_type')}
                  aria-label={`${t('invoices.value_type')} ${i + 1}`}
                  searchable
                  data={typeOptions}
                  value={row.invoicevaluetype_id === null ? null : String(row.invoicevaluetype_id)}
                  onChange={(v) => setRow(row.key, { invoicevaluetype_id: v ? Number(v) : null })}
                  error={errorOf(row).invoicevaluetype_id}
                />
                <NumberTextInput
                  style={{ flex: 1 }}
                  label={t('invoices.value')}
                  aria-label={`${t('invoices.value')} ${i + 1}`}
                  inputMode="decimal"
                  decimals={DECIMAL_PLACES}
                  value={row.value}
                  onChange={(value) => setRow(row.key, { value })}
                  error={errorOf(row).value}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={t('invoices.remove_value_type', { n: i + 1 })}
                  onClick={() => setRows((old) => old.filter((r) => r.key !== row.key))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" component={Link} to="/app/table/invoice">
            {t('form.cancel')}
          </Button>
          <Button onClick={save} loading={create.isPending}>
            {t('invoices.create_invoice')}
          </Button>
        </Group>
      </Stack>
    </DatesProvider>
  );
}

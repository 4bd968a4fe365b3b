import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordForm } from '../../../components/form/record-form';
import { useRecordForm } from '../../../components/form/use-record-form';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { rowLabel } from '../../../lib/data-provider';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, TableDefinition } from '../../../lib/table-definition';
import { useSavePayments } from '../api/save-payments';
import { newRow, type PaymentRow, removeRow, rowErrors, rowsFrom, rowsToSend } from '../model/payment-rows';
import type { StepProps } from './basic-data-step';
import { StepActions } from './step-actions';

/** The contract is the step's own and the key is the server's: rows show neither. */
const STEP_FIELDS_OMITTED = new Set(['contract_id', 'recurringpayment_id']);

/** What the step reads from and tells each row's form. */
interface RowHandle {
  /** Client check; marks the row's fields. */
  validate: () => boolean;
  payload: () => Record<string, unknown>;
  dirty: () => boolean;
  /** Puts the server's errors on the row's fields (the rest shows above them). */
  showErrors: (errors: Record<string, string>) => void;
}

/**
 * Step 2: the contract's recurring payments. Rows are added, changed and
 * removed on the page and saved together, all or nothing, through PUT
 * /contracts/step/2; a refused row shows its errors on its own fields.
 */
export function PaymentsStep({ def, contract, onDirtyChange, onSaved, onBack, onCancel, last }: StepProps & { def: TableDefinition }) {
  const { t } = useTranslation();
  const contractId = contract?.contract_id ?? 0;
  const attributes = useMemo(() => def.attributes.filter((a) => !STEP_FIELDS_OMITTED.has(a.attribute)), [def.attributes]);
  const [rows, setRows] = useState<PaymentRow[]>(() => rowsFrom(contract?.recurringpayments));
  const [removed, setRemoved] = useState<number[]>([]);
  const [seq, setSeq] = useState(1);
  const [dirtyRows, setDirtyRows] = useState<Record<string, boolean>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const handles = useRef(new Map<string, RowHandle>());
  const save = useSavePayments();
  const dirty = !save.isPending && (removed.length > 0 || rows.some((r) => r.id === null || dirtyRows[r.key]));
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const reportDirty = useCallback((key: string, d: boolean) => setDirtyRows((old) => (old[key] === d ? old : { ...old, [key]: d })), []);

  const add = () => {
    setRows((old) => [...old, newRow(seq)]);
    setSeq((n) => n + 1);
  };
  const remove = (key: string) => {
    const next = removeRow(rows, removed, key);
    setRows(next.rows);
    setRemoved(next.removed);
    handles.current.delete(key);
  };

  const submit = async (go: boolean) => {
    setGeneral([]);
    const handleOf = (key: string) => handles.current.get(key);
    const invalid = rows.filter((r) => !(handleOf(r.key)?.validate() ?? true));
    if (invalid.length > 0) {
      setGeneral([t('form.fix_errors')]);
      return;
    }
    const sent = rowsToSend(rows, (key) => handleOf(key)?.payload() ?? {}, (key) => handleOf(key)?.dirty() ?? false);
    if (sent.length === 0 && removed.length === 0) {
      if (contract) onSaved(contract, go);
      return;
    }
    try {
      const answer = await save.mutateAsync({ contract_id: contractId, recurringpayments: sent.map((s) => s.data), remove_ids: removed });
      onDirtyChange(false);
      notifySuccess(t('contracts.payments_saved'));
      onSaved(answer.data, go);
    } catch (error) {
      const mapped = rowErrors(error, sent);
      if (!mapped) {
        const message = error instanceof ApiError && error.status === 409 ? t('contracts.conflict') : errorMessage(error);
        setGeneral([message]);
        notifyError(message);
        return;
      }
      for (const [key, errors] of Object.entries(mapped.rows)) handleOf(key)?.showErrors(errors);
      setGeneral(mapped.general.length > 0 ? mapped.general : [t('form.fix_errors')]);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('contracts.step.payments')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(true);
      }}
    >
      <Stack gap="md">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="md">
            {t('contracts.payments_empty')}
          </Text>
        )}
        {rows.map((row, i) => (
          <PaymentRowForm
            key={row.key}
            ref={(h) => {
              if (h) handles.current.set(row.key, h);
            }}
            row={row}
            index={i}
            attributes={attributes}
            labelFields={def.label}
            contractId={contractId}
            onDirtyChange={reportDirty}
            onRemove={() => remove(row.key)}
          />
        ))}
        {removed.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('contracts.payments_removed', { count: removed.length })}
          </Text>
        )}
        <Group>
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add}>
            {t('contracts.payment_add')}
          </Button>
        </Group>
        {general.length > 0 && (
          <Alert color="red" role="alert" variant="light">
            {general.join(' ')}
          </Alert>
        )}
        <StepActions onBack={onBack} onCancel={onCancel} onSave={() => void submit(false)} last={last} busy={save.isPending} />
      </Stack>
    </form>
  );
}

interface PaymentRowFormProps {
  row: PaymentRow;
  index: number;
  attributes: AttributeDefinition[];
  labelFields: string[];
  /** The step's contract: the row's tax rates are its company's. */
  contractId: number;
  onDirtyChange: (key: string, dirty: boolean) => void;
  onRemove: () => void;
}

/** One payment: the generic form of its fields, its errors, and a remove button. */
const PaymentRowForm = forwardRef<RowHandle, PaymentRowFormProps>(function PaymentRowForm(
  { row, index, attributes, labelFields, contractId, onDirtyChange, onRemove },
  ref,
) {
  const { t } = useTranslation();
  const form = useRecordForm(attributes, row.id === null ? 'create' : 'update', row.id === null ? null : row.stored);
  const [other, setOther] = useState<string[]>([]);
  const { dirty } = form;
  useEffect(() => onDirtyChange(row.key, dirty), [row.key, dirty, onDirtyChange]);
  useImperativeHandle(
    ref,
    () => ({
      validate: form.validate,
      payload: form.payload,
      dirty: () => form.dirty,
      showErrors: (errors) => {
        const shown = new Set(attributes.map((a) => a.attribute));
        form.setServerErrors(Object.fromEntries(Object.entries(errors).filter(([f]) => shown.has(f))));
        setOther(Object.entries(errors).filter(([f]) => !shown.has(f)).map(([, m]) => m));
      },
    }),
    [form, attributes],
  );
  const name = rowLabel(form.values, labelFields) || t('contracts.payment_new');
  const hasErrors = Object.keys(form.errors).length > 0 || other.length > 0;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby={`payment-${row.key}`}
      data-payment-row={index}
      aria-invalid={hasErrors || undefined}
      style={hasErrors ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h5" id={`payment-${row.key}`}>
          {t('contracts.payment_title', { n: index + 1, name })}
        </Title>
        <Button
          variant="subtle"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} />}
          onClick={onRemove}
          aria-label={t('contracts.payment_remove_named', { n: index + 1 })}
        >
          {t('contracts.payment_remove')}
        </Button>
      </Group>
      {other.length > 0 && (
        <Alert color="red" variant="light" mb="sm">
          {other.join(' ')}
        </Alert>
      )}
      <RecordForm form={form} row={row.stored} entity="recurringpayment" columns={3} context={{ contract_id: contractId }} />
    </Paper>
  );
});

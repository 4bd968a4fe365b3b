import { Alert, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { StaleEditDialog } from '../../../components/form/stale-edit-dialog';
import { useRecordForm } from '../../../components/form/use-record-form';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { TableDefinition } from '../../../lib/table-definition';
import { type Contract, getContract } from '../api/get-contract';
import { contractKeys } from '../api/keys';
import { useSaveBasicData } from '../api/save-basic-data';
import { StepActions } from './step-actions';

export interface StepProps {
  /** The saved contract; null before the first save. */
  contract: Contract | null;
  /** Reports unsaved changes (the page asks before they are left). */
  onDirtyChange: (dirty: boolean) => void;
  /** Called with the saved contract; `go` true: open the next step. */
  onSaved: (contract: Contract, go: boolean) => void;
  onBack?: () => void;
  /** Leaves the steps without saving. */
  onCancel?: () => void;
  last: boolean;
}

/**
 * Step 1 (server step 0): the contract's own fields, from its served
 * definition in the generic form; POST /contracts/step/0 for a new contract,
 * PUT /contracts/step/0/{id} with the row version read for a saved one.
 * A 409 (someone else saved the contract meanwhile) offers to reload it, as
 * the other forms do.
 */
export function BasicDataStep({ def, contract, onDirtyChange, onSaved, onBack, onCancel, last }: StepProps & { def: TableDefinition }) {
  const { t } = useTranslation();
  const form = useRecordForm(def.attributes, contract ? 'update' : 'create', contract);
  const save = useSaveBasicData();
  const [formError, setFormError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const client = useQueryClient();
  const dirty = form.dirty && !save.isPending;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const shownError = formError === t('form.fix_errors') && Object.keys(form.errors).length === 0 ? null : formError;

  const submit = async (go: boolean) => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    try {
      const answer = await save.mutateAsync({
        id: contract ? contract.contract_id : null,
        rowVersion: contract ? contract.row_version : null,
        data: form.payload(),
      });
      form.markSaved();
      onDirtyChange(false);
      notifySuccess(t('contracts.basic_saved'));
      onSaved(answer.data, go);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setFormError(t('contracts.conflict'));
        setStale(true);
        return;
      }
      const message = applyFieldErrors(error, form, t('form.fix_errors'));
      setFormError(message ?? errorMessage(error));
      if (message === null) notifyError(errorMessage(error));
    }
  };

  // The stored contract again: the page's query gets it (the step shows it
  // with its new row version), and the form forgets the input.
  const reload = async () => {
    setStale(false);
    if (!contract) return;
    try {
      const fresh = await client.fetchQuery({
        queryKey: contractKeys.contract(contract.contract_id),
        queryFn: ({ signal }) => getContract(contract.contract_id, signal),
        staleTime: 0,
      });
      form.reset(fresh.data);
      setFormError(null);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  };

  return (
    <form
      noValidate
      aria-label={t('contracts.step.basic')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(true);
      }}
    >
      <Stack gap="md">
        {/* The saved contract's number is in the page title ("#12"), not a field. */}
        <RecordForm form={form} row={contract} entity="contract" columns={2} primaryKey={def.primary_key} />
        {shownError && (
          <Alert color="red" role="alert" variant="light">
            {shownError}
          </Alert>
        )}
        <StepActions onBack={onBack} onCancel={onCancel} onSave={() => void submit(false)} last={last} busy={save.isPending} />
      </Stack>
      <StaleEditDialog opened={stale} onKeep={() => setStale(false)} onReload={() => void reload()} />
    </form>
  );
}

import { Alert, Anchor, Breadcrumbs, Loader, Paper, Stack, Stepper, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { UnsavedChangesGuard } from '../../../components/form/unsaved-changes-guard';
import { useAbility } from '../../../lib/ability-context';
import { errorMessage } from '../../../lib/api-client';
import { rowLabel } from '../../../lib/data-provider';
import { type Contract, useContract } from '../api/get-contract';
import { useEntityDefinition } from '../api/get-definition';
import { canOpen, canSaveStep, nextStep, openStep, previousStep, STEPS, type StepKey, stepIndex, stepPath } from '../model/steps';
import { BasicDataStep } from './basic-data-step';
import { DocumentsStep } from './documents-step';
import { PaymentsStep } from './payments-step';

/**
 * /app/table/contract/create and /app/table/contract/view/{id}?edit=true:
 * the contract in three steps (basic data, recurring payments, documents).
 * Each step saves on its own and can be left; the next one opens with what
 * was saved (the contract as the server answered it). Leaving a step or the
 * page with unsaved changes asks first.
 */
export default function ContractStepsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const contractId = id && Number(id) > 0 ? Number(id) : null;
  const [search] = useSearchParams();
  const step = openStep(search.get('step'), contractId);
  const navigate = useNavigate();
  const ability = useAbility();
  const writable = canSaveStep(ability, step, contractId);
  const contract = useContract(contractId);
  const contractDef = useEntityDefinition('contract');
  const paymentDef = useEntityDefinition('recurringpayment');
  const documentDef = useEntityDefinition('document');
  const [dirty, setDirty] = useState(false);
  // Navigation waits until the saved step no longer counts as changed, so the guard lets it pass.
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    if (pending !== null && !dirty) {
      navigate(pending, { replace: contractId === null });
      setPending(null);
    }
  }, [pending, dirty, navigate, contractId]);
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);

  const title = contractId === null ? t('contracts.new_title') : t('contracts.edit_title');
  const go = (to: StepKey) => navigate(stepPath(contractId, to));
  const onSaved = (saved: Contract, forward: boolean) => {
    setDirty(false);
    const next = nextStep(step);
    if (!forward) {
      // A new contract gets its address once saved; the step stays open.
      if (contractId === null) setPending(stepPath(saved.contract_id, step));
      return;
    }
    setPending(next ? stepPath(saved.contract_id, next) : `/app/table/contract/view/${saved.contract_id}`);
  };

  const loading = contractDef.isPending || paymentDef.isPending || documentDef.isPending || (contractId !== null && contract.isPending);
  const failed = contractDef.error ?? paymentDef.error ?? documentDef.error ?? contract.error;
  const saved = contract.data?.data ?? null;
  const name = saved && contractDef.data ? rowLabel(saved, contractDef.data.label) : '';
  const back = previousStep(step);
  const stepProps = {
    contract: saved,
    onDirtyChange,
    onSaved,
    onBack: back ? () => go(back) : undefined,
    // Leaving without saving goes where the steps were opened from; the guard asks about unsaved changes.
    onCancel: () => navigate(contractId === null ? '/app/table/contract' : `/app/table/contract/view/${contractId}`),
    last: nextStep(step) === null,
  };

  return (
    <Stack gap="md" maw={1200}>
      <Stack gap={4}>
        <Breadcrumbs>
          <Anchor component={Link} to="/app/table/contract" size="sm">
            {t('contracts.list')}
          </Anchor>
          {contractId !== null && (
            <Anchor component={Link} to={`/app/table/contract/view/${contractId}`} size="sm">
              {name || `#${contractId}`}
            </Anchor>
          )}
          <span>{title}</span>
        </Breadcrumbs>
        <Title order={1}>{title}</Title>
      </Stack>
      <Stepper
        active={stepIndex(step)}
        onStepClick={(i) => {
          const to = STEPS[i];
          if (to !== step && canOpen(to, contractId)) go(to);
        }}
        allowNextStepsSelect={contractId !== null}
        size="sm"
      >
        {STEPS.map((key) => (
          <Stepper.Step
            key={key}
            label={t(`contracts.step.${key}`)}
            description={t(`contracts.step.${key}_hint`)}
            allowStepSelect={canOpen(key, contractId)}
          />
        ))}
      </Stepper>
      <Paper withBorder p="lg" radius="md">
        {loading ? (
          <Loader m="xl" aria-label={t('general.loading')} />
        ) : failed || !contractDef.data || !paymentDef.data || !documentDef.data ? (
          <Alert color="red">{errorMessage(failed)}</Alert>
        ) : !writable ? (
          // The server would refuse the step's save: no form is offered.
          <Alert color="gray" data-testid="step-read-only">
            <Stack gap="xs" align="flex-start">
              {t('contracts.step_read_only')}
              {contractId !== null && (
                <Anchor component={Link} to={`/app/table/contract/view/${contractId}`}>
                  {t('contracts.back_to_contract')}
                </Anchor>
              )}
            </Stack>
          </Alert>
        ) : step === 'basic' ? (
          <BasicDataStep key={`basic-${String(saved?.row_version ?? 'new')}`} def={contractDef.data} {...stepProps} />
        ) : step === 'payments' ? (
          <PaymentsStep key={`payments-${JSON.stringify((saved?.recurringpayments ?? []).map((p) => p.row_version))}`} def={paymentDef.data} {...stepProps} />
        ) : (
          <DocumentsStep key="documents" documentDef={documentDef.data} contractDef={contractDef.data} {...stepProps} />
        )}
      </Paper>
      <UnsavedChangesGuard dirty={dirty && pending === null} />
    </Stack>
  );
}

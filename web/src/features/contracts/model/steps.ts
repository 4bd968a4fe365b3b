import type { AppAbility } from '../../../lib/ability';

/**
 * The steps of the contract create and edit page, in order, with the server
 * step each one saves through (0 basic data, 2 recurring payments, 7
 * documents). The page names the open step in its query (?step=payments), so
 * a reload or a link reopens it, and the unsaved-changes guard asks before a
 * step is left.
 */
export const STEPS = ['basic', 'payments', 'documents'] as const;
export type StepKey = (typeof STEPS)[number];

/** The server's number of each step (/contracts/step/{n}). */
export const SERVER_STEP: Record<StepKey, number> = { basic: 0, payments: 2, documents: 7 };

export function isStep(value: string | null | undefined): value is StepKey {
  return (STEPS as readonly string[]).includes(value ?? '');
}

/** True when `step` may be opened: only the basic data until the contract is saved once. */
export function canOpen(step: StepKey, contractId: number | null): boolean {
  return step === 'basic' || contractId !== null;
}

/** The step the page shows for the query's `step`: that one when it may be opened, else the basic data. */
export function openStep(param: string | null, contractId: number | null): StepKey {
  return isStep(param) && canOpen(param, contractId) ? param : 'basic';
}

export function stepIndex(step: StepKey): number {
  return STEPS.indexOf(step);
}

/** The step after `step`, or null after the last one. */
export function nextStep(step: StepKey): StepKey | null {
  return STEPS[stepIndex(step) + 1] ?? null;
}

/** The step before `step`, or null before the first one. */
export function previousStep(step: StepKey): StepKey | null {
  const i = stepIndex(step);
  return i > 0 ? STEPS[i - 1] : null;
}

/** Where the page goes to show `step` of contract `id` (create stays on /create until saved). */
export function stepPath(id: number | null, step: StepKey): string {
  return id === null ? '/app/table/contract/create' : `/app/table/contract/view/${id}?edit=true&step=${step}`;
}

/**
 * Whether the user may save a step, by the rights its call checks: step 0
 * creates or changes the contract, step 2 creates, changes and removes its
 * recurring payments, step 7 uploads documents and links them to the
 * contract (its documents tab).
 */
export function canSaveStep(ability: AppAbility, step: StepKey, contractId: number | null): boolean {
  switch (step) {
    case 'basic':
      return ability.can(contractId === null ? 'create' : 'update', 'contract');
    case 'payments':
      return ability.can('create', 'recurringpayment') && ability.can('update', 'recurringpayment');
    default:
      return ability.can('create', 'document') && ability.can('update', 'contract_document_rel');
  }
}

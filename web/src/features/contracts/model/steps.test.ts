import { describe, expect, it } from 'vitest';
import { leavesWithChanges } from '../../../components/form/unsaved-changes-guard';
import { canOpen, nextStep, openStep, previousStep, SERVER_STEP, stepPath } from './steps';

describe('contract steps', () => {
  it('opens only the basic data until the contract is saved', () => {
    expect(openStep('payments', null)).toBe('basic');
    expect(openStep('documents', null)).toBe('basic');
    expect(canOpen('basic', null)).toBe(true);
    expect(canOpen('payments', null)).toBe(false);
  });

  it('opens the asked step of a saved contract, and the basic data for an unknown one', () => {
    expect(openStep('payments', 4)).toBe('payments');
    expect(openStep('documents', 4)).toBe('documents');
    expect(openStep(null, 4)).toBe('basic');
    expect(openStep('7', 4)).toBe('basic');
  });

  it('goes forward and back in order, with nothing before the first and after the last', () => {
    expect(nextStep('basic')).toBe('payments');
    expect(nextStep('payments')).toBe('documents');
    expect(nextStep('documents')).toBeNull();
    expect(previousStep('documents')).toBe('payments');
    expect(previousStep('basic')).toBeNull();
  });

  it('saves each step through the server step of the specification', () => {
    expect(SERVER_STEP).toEqual({ basic: 0, payments: 2, documents: 7 });
  });

  it('names the step in the address of a saved contract; a new one stays on create', () => {
    expect(stepPath(null, 'basic')).toBe('/app/table/contract/create');
    expect(stepPath(12, 'payments')).toBe('/app/table/contract/view/12?edit=true&step=payments');
  });
});

describe('unsaved changes guard', () => {
  const here = { pathname: '/app/table/contract/view/3', search: '?edit=true&step=basic' };

  it('asks when another step or page is opened with changes', () => {
    expect(leavesWithChanges(true, here, { pathname: here.pathname, search: '?edit=true&step=payments' })).toBe(true);
    expect(leavesWithChanges(true, here, { pathname: '/app/table/contract', search: '' })).toBe(true);
  });

  it('lets the page go without changes, and stays quiet when nothing moves', () => {
    expect(leavesWithChanges(false, here, { pathname: '/app/table/contract', search: '' })).toBe(false);
    expect(leavesWithChanges(true, here, { ...here })).toBe(false);
  });
});

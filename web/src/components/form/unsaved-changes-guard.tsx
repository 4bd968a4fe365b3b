import { Button, Group, Modal, Text } from '@mantine/core';
import { type RefObject, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, useBlocker } from 'react-router';

type Place = Pick<Location, 'pathname' | 'search'>;

/**
 * True when moving from `current` to `next` leaves the page while `dirty`:
 * another path, or another query unless `ignoreSearch` (a page whose tabs and
 * edit mode live in the query).
 */
export function leavesWithChanges(dirty: boolean, current: Place, next: Place, ignoreSearch = false): boolean {
  const where = (l: Place) => (ignoreSearch ? l.pathname : l.pathname + l.search);
  return dirty && where(current) !== where(next);
}

export interface UnsavedChangesGuardProps {
  /** Whether the form holds changes that are not saved. */
  dirty: boolean;
  /**
   * Set to true right before the form navigates on purpose (after a save, or
   * after the user agreed to discard): read when the navigation happens, so
   * it lets that navigation through before `dirty` has re-rendered.
   */
  released?: RefObject<boolean>;
  /** Only a change of the path leaves (a page whose tabs and edit mode live in the query). */
  ignoreSearch?: boolean;
}

/**
 * Asks before leaving a form with unsaved changes: route changes through the
 * router's blocker, tab close and reload through beforeunload. Rendered only by
 * the page's own form (a router holds one blocker at a time).
 */
export function UnsavedChangesGuard({ dirty, released, ignoreSearch }: UnsavedChangesGuardProps) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => !released?.current && leavesWithChanges(dirty, currentLocation, nextLocation, ignoreSearch),
  );
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={t('form.unsaved_title')} centered>
      <Text size="sm">{t('form.unsaved_text')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          {t('form.keep_editing')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {t('form.discard')}
        </Button>
      </Group>
    </Modal>
  );
}

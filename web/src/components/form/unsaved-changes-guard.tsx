import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, useBlocker } from 'react-router';

/** True when moving from `current` to `next` leaves the page (another path or query) while `dirty`. */
export function leavesWithChanges(dirty: boolean, current: Pick<Location, 'pathname' | 'search'>, next: Pick<Location, 'pathname' | 'search'>): boolean {
  return dirty && current.pathname + current.search !== next.pathname + next.search;
}

/**
 * Asks before leaving a form with unsaved changes: route changes through the
 * router's blocker, tab close and reload through beforeunload. Rendered only by
 * the page's own editor (a router holds one blocker at a time).
 */
export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => leavesWithChanges(dirty, currentLocation, nextLocation));
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

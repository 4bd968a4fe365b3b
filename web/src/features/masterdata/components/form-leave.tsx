import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * How a master-data form is left: `leave` runs `then` at once when nothing
 * changed, else after the user agreed to discard the changes; `released`
 * tells the page's unsaved-changes guard that the form navigates on purpose
 * (after a save, or after discarding), so it does not ask a second time.
 */
export function useFormLeave(dirty: boolean) {
  const { t } = useTranslation();
  const released = useRef(false);
  const release = (then: () => void) => {
    released.current = true;
    then();
  };
  const leave = (then: () => void) => {
    if (!dirty) return release(then);
    modals.openConfirmModal({
      title: t('masterdata.discard.title'),
      children: <Text size="sm">{t('masterdata.discard.text')}</Text>,
      labels: { confirm: t('masterdata.discard.confirm'), cancel: t('masterdata.discard.keep') },
      confirmProps: { color: 'red' },
      centered: true,
      onConfirm: () => release(then),
    });
  };
  return { released, release, leave };
}

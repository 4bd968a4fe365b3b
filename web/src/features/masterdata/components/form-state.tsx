import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StaleEditDialog } from '../../../components/form/stale-edit-dialog';
import { UnsavedChangesGuard } from '../../../components/form/unsaved-changes-guard';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';

/**
 * The state of a master-data record form: its values `v` (compared with the
 * values it started from: `dirty`), the field errors of a 422, whether a save
 * was stale (409), and how the form is left:
 *
 * - `leave(then)` runs `then` at once when nothing changed, else after the
 *   user agreed to discard the changes;
 * - `release(then)` runs `then` after a save; both tell the page's
 *   unsaved-changes guard (`released`) that the form navigates on purpose,
 *   so it does not ask a second time;
 * - `onSaveError` shows a 409 as the stale-edit dialog, marks the fields of a
 *   422 and toasts `saveError` with the server's message.
 */
export function useFormState<V>(start: () => V, saveError: string) {
  const { t } = useTranslation();
  const [initial] = useState(start);
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const dirty = JSON.stringify(v) !== JSON.stringify(initial);
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
  const onSaveError = (error: Error) => {
    if (error instanceof ApiError && error.status === 409) return setStale(true);
    if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
    notifyError(errorMessage(error), saveError);
  };
  return { v, setV, errors, setErrors, dirty, stale, setStale, released, release, leave, onSaveError };
}

export type FormState<V> = ReturnType<typeof useFormState<V>>;

export interface FormFooterProps<V> {
  form: FormState<V>;
  editing: boolean;
  saving: boolean;
  saveDisabled?: boolean;
  /** Leaves edit mode (or the create page). */
  onDone: () => void;
  /** Loads the stored record again after a stale save. */
  onReload?: () => void;
}

/**
 * Cancel and Save of a master-data form in edit mode, the guard that asks
 * before leaving the page with unsaved changes, and the stale-edit dialog.
 */
export function FormFooter<V>({ form, editing, saving, saveDisabled, onDone, onReload }: FormFooterProps<V>) {
  const { t } = useTranslation();
  if (!editing) return null;
  return (
    <>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => form.leave(onDone)}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" loading={saving} disabled={saveDisabled}>
          {t('general.save')}
        </Button>
      </Group>
      <UnsavedChangesGuard dirty={form.dirty && !saving} released={form.released} ignoreSearch />
      <StaleEditDialog opened={form.stale} onKeep={() => form.setStale(false)} onReload={() => {
        form.setStale(false);
        onReload?.();
      }} />
    </>
  );
}

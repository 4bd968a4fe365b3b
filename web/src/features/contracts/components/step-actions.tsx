import { Button, Group } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export interface StepActionsProps {
  /** Shown when there is a step before this one. */
  onBack?: () => void;
  /** Leaves the steps without saving (the page asks first when something is unsaved). */
  onCancel?: () => void;
  /** Saves and stays on the step (absent: the step has no separate save). */
  onSave?: () => void;
  /** The primary action (the form's submit, so Enter does it): save and go on, or finish on the last step. */
  last: boolean;
  busy: boolean;
}

/** The buttons below a step: back, cancel, save, and save and continue (the submit button). */
export function StepActions({ onBack, onCancel, onSave, last, busy }: StepActionsProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="xs" mt="md">
      <div>
        {onBack && (
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={onBack} disabled={busy}>
            {t('contracts.back')}
          </Button>
        )}
      </div>
      <Group gap="xs">
        {onCancel && (
          <Button variant="subtle" color="gray" onClick={onCancel} disabled={busy}>
            {t('form.cancel')}
          </Button>
        )}
        {onSave && (
          <Button variant="default" onClick={onSave} loading={busy}>
            {t('form.save')}
          </Button>
        )}
        <Button type="submit" loading={busy} rightSection={last ? <IconCheck size={16} /> : <IconArrowRight size={16} />}>
          {last ? t('contracts.save_finish') : t('contracts.save_continue')}
        </Button>
      </Group>
    </Group>
  );
}

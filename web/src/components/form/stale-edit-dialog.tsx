import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface StaleEditDialogProps {
  opened: boolean;
  /** Close the dialog and keep the user's input. */
  onKeep: () => void;
  /** Load the stored record again (the user's input is lost). */
  onReload: () => void;
}

/** Says that someone else changed the record being edited (a save answered 409) and offers to reload it. */
export function StaleEditDialog({ opened, onKeep, onReload }: StaleEditDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onKeep} title={t('form.conflict_title')} centered>
      <Text size="sm">{t('form.conflict_text')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onKeep}>
          {t('form.keep_editing')}
        </Button>
        <Button onClick={onReload}>{t('form.reload_record')}</Button>
      </Group>
    </Modal>
  );
}

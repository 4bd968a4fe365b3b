import { PasswordInput as MantinePasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Mantine's PasswordInput with a translated label on the show/hide button. */
export function PasswordInput(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <MantinePasswordInput
      {...props}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.toggle_password'), ...props.visibilityToggleButtonProps }}
    />
  );
}

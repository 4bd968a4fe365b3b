import { notifications } from '@mantine/notifications';
import { i18n } from './i18n-instance';

/** How long toasts stay on screen. */
export const TOAST_DURATION_MS = 3000;

/** The toast's close button, named for screen readers. */
function closeButtonProps() {
  return { 'aria-label': i18n.t('general.close_notification') };
}

export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', message, title, autoClose: TOAST_DURATION_MS, closeButtonProps: closeButtonProps() });
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'teal', message, title, autoClose: TOAST_DURATION_MS, closeButtonProps: closeButtonProps() });
}

export function notifyInfo(message: string, title?: string): void {
  notifications.show({ color: 'blue', message, title, autoClose: TOAST_DURATION_MS, closeButtonProps: closeButtonProps() });
}

import { notifications } from '@mantine/notifications';

/** How long toasts stay on screen. */
export const TOAST_DURATION_MS = 3000;

export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', message, title, autoClose: TOAST_DURATION_MS });
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'teal', message, title, autoClose: TOAST_DURATION_MS });
}

export function notifyInfo(message: string, title?: string): void {
  notifications.show({ color: 'blue', message, title, autoClose: TOAST_DURATION_MS });
}

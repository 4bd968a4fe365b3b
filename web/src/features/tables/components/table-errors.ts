import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n-instance';
import { notifyError } from '../../../lib/notify';

/** The server's detail text, or "Unknown error". */
export function serverDetail(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0 || error.status === 503) return i18n.t('general.server_down');
    if (typeof error.detail === 'string' && error.detail) return error.detail;
    if (Array.isArray(error.detail) && error.detail.length > 0) return error.detail.map((d) => d.msg).join(' ');
  }
  return i18n.t('grid.unknown_error');
}

/** Toasts an error unless the HTTP client already did (403, 503). */
export function toastError(error: unknown): void {
  if (error instanceof ApiError && error.notified) return;
  notifyError(serverDetail(error));
}

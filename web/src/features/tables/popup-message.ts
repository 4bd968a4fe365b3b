/** The message a popup form posts to its opener after creating a record. */
export interface PopupCreatedMessage {
  type: 'portfolio:popup-created';
  /** The table the record was created in. */
  table: string;
  /** The list field of the opener that asked for it. */
  list: string;
  id: number;
  label: string;
}

export function isPopupCreatedMessage(data: unknown): data is PopupCreatedMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  return (
    m.type === 'portfolio:popup-created' &&
    typeof m.table === 'string' &&
    typeof m.list === 'string' &&
    typeof m.id === 'number' &&
    typeof m.label === 'string'
  );
}

/** Accepts a message event only from this very origin and with the typed payload. */
export function acceptPopupMessage(event: MessageEvent, origin = window.location.origin): PopupCreatedMessage | null {
  if (event.origin !== origin) return null;
  return isPopupCreatedMessage(event.data) ? event.data : null;
}

import { api, type DownloadedFile } from '../../../lib/api-client';

/** The record a document is uploaded for: its key field (pos_id, ...) and id. */
export interface DocumentOwner {
  field: string;
  id: string;
}

/** The owners POST /documents/uploadfiles links documents to (the upload itself: documents/api/upload-pdf). */
export const DOCUMENT_OWNER_FIELDS = new Set(['pos_id', 'contract_id', 'ticket_id', 'invoice_id']);

/** The five URLs of a document, each with a link token valid 5 minutes. */
export interface DocumentLinks {
  download: string;
  download_stamp: string;
  preview: string;
  preview_stamp: string;
  sign_image: string;
}

/** Asks the server for a document's link URLs (GET /documents/links/{id}). */
export function getDocumentLinks(id: string | number): Promise<DocumentLinks> {
  return api.get<DocumentLinks>(`/documents/links/${encodeURIComponent(String(id))}`);
}

/** Downloads a document's PDF through a fresh link and saves it under the server's file name. */
export async function downloadDocument(id: string | number, fallbackName: string): Promise<void> {
  const links = await getDocumentLinks(id);
  const file = await api.get<DownloadedFile>(links.download, { responseType: 'blob' });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? `${fallbackName}.pdf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

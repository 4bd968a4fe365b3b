import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { tableKeys } from './keys';

/** The record a document is uploaded for: its key field (pos_id, ...) and id. */
export interface DocumentOwner {
  field: string;
  id: string;
}

/** The owners POST /documents/uploadfiles links documents to. */
export const DOCUMENT_OWNER_FIELDS = new Set(['pos_id', 'contract_id', 'ticket_id', 'invoice_id']);

export interface UploadInput {
  /** The relation tab to reload afterwards. */
  relationApi: string;
  owner: DocumentOwner;
  /** The document's fields (name, type, sub type). */
  fields: Record<string, unknown>;
  file: File;
}

/**
 * Uploads one PDF for its owner: the fields first, the file last, as the
 * server reads them.
 */
export async function uploadDocument({ owner, fields, file }: UploadInput): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined && value !== '') form.append(name, String(value));
  }
  form.append(owner.field, owner.id);
  form.append('files', file, file.name);
  const answer = await api.upload<{ data: { document_id: number }[] }>('/documents/uploadfiles', form);
  return answer.data[0].document_id;
}

export function useUploadDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadDocument,
    onSuccess: (_id, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.relationApi) }),
  });
}

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

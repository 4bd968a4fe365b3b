/**
 * The documents of a record (a ticket, a point of sale) through the
 * generic relation list ('{table}_document_rel'), for the mail modal's
 * attachments and the ticket's documents.
 */
import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';

export interface RecordDocument {
  document_id: number;
  document_name: string;
  document_mime_type: string;
  document_sha256: string | null;
  /** The document's type; null while it has none (then it is neither stamped nor signed). */
  documenttype_id: number | null;
}

/** The relation of each owner field that lists its documents. */
export const DOCUMENT_RELATIONS: Record<string, string> = {
  ticket_id: 'ticket_document_rel',
  pos_id: 'pos_document_rel',
  contract_id: 'contract_document_rel',
};

export async function listRecordDocuments(ownerField: string, ownerId: number, signal?: AbortSignal): Promise<RecordDocument[]> {
  const rel = DOCUMENT_RELATIONS[ownerField];
  const answer = await dataProvider.list(rel, { perPage: 100, data: { [ownerField]: ownerId } }, signal);
  return answer.data.data.map((row) => ({
    document_id: Number(row.document_id),
    document_name: String(row.document_name ?? ''),
    document_mime_type: String(row.document_mime_type ?? ''),
    document_sha256: row.document_sha256 ? String(row.document_sha256) : null,
    documenttype_id: row.documenttype_id === null || row.documenttype_id === undefined ? null : Number(row.documenttype_id),
  }));
}

export const recordDocumentsKey = (ownerField: string, ownerId: number) => ['documents', 'record', ownerField, ownerId] as const;

export function useRecordDocuments(ownerField: string, ownerId: number | null) {
  return useQuery({
    queryKey: recordDocumentsKey(ownerField, ownerId ?? 0),
    queryFn: ({ signal }) => listRecordDocuments(ownerField, ownerId ?? 0, signal),
    enabled: ownerId !== null && ownerId > 0,
  });
}

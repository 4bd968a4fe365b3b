/** POST /documents/{id}/sign: the drawn signature on a ticket's document. */
import { api } from '../../../lib/api-client';

export interface Signed {
  document_id: number;
  original_sha256: string;
  signed_sha256: string;
}

export interface SignInput {
  ticket_id: number;
  /** The drawing as a PNG data URL. */
  signature: string;
  /** The SHA-256 of the document as shown: a changed document answers 409. */
  sha256: string;
}

export function signDocument(id: number, input: SignInput): Promise<Signed> {
  return api.post<Signed>(`/documents/${id}/sign`, input, { silent: true });
}

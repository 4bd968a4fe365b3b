import { api } from '../../../lib/api-client';

/**
 * POST /documents/uploadfiles without an owner: the step links the document
 * to the contract itself (step 7), with its role. Fields first, the file last,
 * as the server reads them. Answers the new document's id.
 */
export async function uploadDocument(fields: Record<string, unknown>, file: File): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined && value !== '') form.append(name, String(value));
  }
  form.append('files', file, file.name);
  const answer = await api.upload<{ data: { document_id: number }[] }>('/documents/uploadfiles', form, { silent: true });
  return answer.data[0].document_id;
}

import { i18n } from '../../../lib/i18n-instance';
import { recordKey } from '../../../lib/record-keys';

/** Query keys of the contract screens; answers carry labels, so the language is part of them. */
export const contractKeys = {
  all: ['contracts'] as const,
  /** Under the record's shared prefix, so a deadline written elsewhere refreshes it. */
  contract: (id: number) => [...recordKey('contract', id), 'contracts', i18n.language] as const,
  definition: (entity: string) => ['contracts', 'definition', entity, i18n.language] as const,
  documents: (id: number) => ['contracts', 'documents', id, i18n.language] as const,
};

import { i18n } from '../../../lib/i18n-instance';

/** Query keys of the contract screens; answers carry labels, so the language is part of them. */
export const contractKeys = {
  all: ['contracts'] as const,
  contract: (id: number) => ['contracts', 'contract', id, i18n.language] as const,
  definition: (entity: string) => ['contracts', 'definition', entity, i18n.language] as const,
  documents: (id: number) => ['contracts', 'documents', id, i18n.language] as const,
};

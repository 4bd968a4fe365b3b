import { useQuery } from '@tanstack/react-query';
import { i18n } from '../../../lib/i18n-instance';
import { dataProvider } from '../../../lib/data-provider';
import { masterdataKeys } from './keys';

/** The served definition of entity (its relations feed the generic tabs below a custom page). */
export function useEntityDefinition(entity: string) {
  return useQuery({
    queryKey: [...masterdataKeys.all, 'definition', entity, i18n.language],
    queryFn: ({ signal }) => dataProvider.definition(entity, signal),
    staleTime: 5 * 60_000,
  });
}

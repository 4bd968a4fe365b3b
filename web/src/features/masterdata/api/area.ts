import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { masterdataKeys } from './keys';

/** An area through the generic table API (same rights, validation and history as the generic form). */
export const areaQueryOptions = (id: number) =>
  queryOptions({
    queryKey: masterdataKeys.area(id),
    queryFn: async ({ signal }): Promise<Row> => (await dataProvider.one('area', id, signal)).data,
  });

export function useArea(id: number) {
  return useQuery({ ...areaQueryOptions(id), enabled: id > 0 });
}

/** The fields an area form writes. */
export interface AreaInput {
  location_id: number;
  areatype_id: number;
  area_name: string;
  area_name_external: string | null;
  area_space_value: number;
  usagetype_id: number;
  area_usage_valid_from: string;
  area_usage_valid_to: string | null;
}

/** Creates (no id) or changes (id and row_version) an area. */
export function useSaveArea() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rowVersion, input }: { id?: number; rowVersion?: number; input: AreaInput }) =>
      id ? dataProvider.update('area', id, { ...input }, rowVersion ?? null) : dataProvider.create('area', { ...input }),
    onSuccess: (answer) => {
      client.setQueryData(masterdataKeys.area(Number(answer.data.area_id)), answer.data);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}

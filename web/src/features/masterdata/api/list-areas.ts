import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CustomList } from './custom-list';
import { masterdataKeys } from './keys';

/** GET /areas: the caller's areas (the whole list, as the specification pages areas by 100000). */
export function listAreas(keyword: string, signal?: AbortSignal): Promise<CustomList> {
  return api.get<CustomList>('/areas', { query: { keyword: keyword || undefined }, signal, silent: true });
}

export function useAreas(keyword: string) {
  return useQuery({ queryKey: masterdataKeys.areas(keyword), queryFn: ({ signal }) => listAreas(keyword, signal) });
}

/** GET /areas/serviceobjects/list: the service objects of the caller's areas. */
export function listServiceObjects(keyword: string, signal?: AbortSignal): Promise<CustomList> {
  return api.get<CustomList>('/areas/serviceobjects/list', { query: { keyword: keyword || undefined, per_page: 1000 }, signal, silent: true });
}

export function useServiceObjects(keyword: string, enabled: boolean) {
  return useQuery({ queryKey: masterdataKeys.serviceObjects(keyword), queryFn: ({ signal }) => listServiceObjects(keyword, signal), enabled });
}

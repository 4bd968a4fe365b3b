/** The dashboard calls: the home's summary and map, the ticket dashboard. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MapPlaceDetail, PortfolioMap, Summary, TicketDashboard } from '../model/types';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: () => ['dashboard', 'summary'] as const,
  map: () => ['dashboard', 'map'] as const,
  place: (key: string) => ['dashboard', 'map', 'place', key] as const,
  tickets: () => ['dashboard', 'tickets'] as const,
};

/** GET /dashboard/summary: the home's figures. */
export function useDashboardSummary() {
  return useQuery({
    queryKey: dashboardKeys.summary(),
    queryFn: ({ signal }) => api.get<Summary>('/dashboard/summary', { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** GET /dashboard/map/place: the points of sale of one place (when key is set). */
export function useMapPlace(key: string | null) {
  return useQuery({
    queryKey: dashboardKeys.place(key ?? ''),
    queryFn: ({ signal }) =>
      api.get<MapPlaceDetail>(`/dashboard/map/place?key=${encodeURIComponent(key ?? '')}`, { signal, silent: true }),
    enabled: key !== null,
    staleTime: 5 * 60_000,
  });
}

/** GET /dashboard/map: the places of the caller's points of sale. */
export function useDashboardMap() {
  return useQuery({
    queryKey: dashboardKeys.map(),
    queryFn: ({ signal }) => api.get<PortfolioMap>('/dashboard/map', { signal, silent: true }),
    staleTime: 5 * 60_000,
  });
}

/** GET /dashboard/tickets: the ticket dashboard. */
export function useTicketDashboard() {
  return useQuery({
    queryKey: dashboardKeys.tickets(),
    queryFn: ({ signal }) => api.get<TicketDashboard>('/dashboard/tickets', { signal, silent: true }),
    staleTime: 30_000,
  });
}

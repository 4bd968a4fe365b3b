/** The dashboard calls: the home's summary and map, the ticket dashboard. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { PortfolioMap, Summary, TicketDashboard } from '../model/types';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: () => ['dashboard', 'summary'] as const,
  map: () => ['dashboard', 'map'] as const,
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

/** GET /dashboard/map: the placed points of sale. */
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

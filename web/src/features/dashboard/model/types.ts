/** The answers of the dashboard calls (internal/dashboard, decision 0019). A figure the caller may not read is null. */

export type Light = 'red' | 'yellow' | 'green';
export type TicketStatus = 'before_deadline' | 'critical_yellow' | 'over_due_red';

export interface Summary {
  pos_count: number | null;
  contract_count: number | null;
  /** Exact decimal (square metres). */
  rental_space: number | null;
  deadlines_90_days: Record<Light, number> | null;
  /** First and last notice day of each light within the 90 days; null when the light cannot occur. */
  deadline_windows: Record<Light, [string, string] | null>;
  tickets_open: Record<TicketStatus, number> | null;
  index_proposals_open: number | null;
  savings_year: {
    claimed: number | null;
    accepted: number | null;
    realised: number | null;
    from: string;
    to: string;
  } | null;
  year: number;
  today: string;
}

export interface MapPoint {
  pos_id: number;
  name: string;
  lat: number;
  lon: number;
  /** The light of the next notice date of its contracts; '' when none. */
  status: Light | '';
}

export interface PortfolioMap {
  points: MapPoint[];
  unplaced: number;
  attribution: string;
}

export interface TicketDashboard {
  open: number;
  boards: {
    board_id: number;
    board_name: string;
    count: number;
    columns: { columnx_id: number; columnx_name: string; count: number }[];
  }[];
  statuses: Record<TicketStatus, number>;
  teams: { team_id: number | null; team_name: string; count: number }[];
  weeks: { from: string; to: string; opened: number; closed: number }[];
  now: string;
}

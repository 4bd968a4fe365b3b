/** The answers of the dashboard calls (internal/dashboard, decision 0019). A figure the caller may not read is null. */

export type Light = 'red' | 'yellow' | 'green';

/** Deadlines by light within the 90 days, and those whose date passed. */
export type LightCounts = Record<Light, number> & { overdue?: number };
export type TicketStatus = 'before_deadline' | 'critical_yellow' | 'over_due_red';

/** One year's claimed, accepted and realised savings (exact decimals); null: the user may not read what it sums. */
export interface YearSavings {
  year?: number;
  claimed: number | null;
  accepted: number | null;
  realised: number | null;
  from: string;
  to: string;
}

export interface Summary {
  pos_count: number | null;
  contract_count: number | null;
  /** Exact decimal (square metres). */
  rental_space: number | null;
  deadlines_90_days: LightCounts | null;
  /** Statements whose objection deadline falls in the same windows; null without the read right on invoices. */
  statement_deadlines_90_days?: LightCounts | null;
  /** First and last notice day of each light within the 90 days; null when the light cannot occur. */
  deadline_windows: Record<Light, [string, string] | null>;
  tickets_open: Record<TicketStatus, number> | null;
  index_proposals_open: number | null;
  /** This year's savings; null without the read right on invoices. */
  savings_year: YearSavings | null;
  /**
   * Every year's savings that has any, newest first, this year's always
   * among them (decision 0069: a claim counts in the year it was made).
   */
  savings_by_year?: YearSavings[] | null;
  year: number;
  today: string;
}

/** A marker of GET /dashboard/map: the points of sale of one postal code area. */
export interface MapPlace {
  /** "<country>-<postal code>", the key of GET /dashboard/map/place. */
  key: string;
  lat: number;
  lon: number;
  /** How many points of sale lie there. */
  count: number;
  /** The worst light of their next notice dates; '' when none has one. */
  status: Light | '';
  /** The point of sale, when it is the only one there. */
  pos_id?: number;
  name?: string;
}

export interface PortfolioMap {
  places: MapPlace[];
  placed: number;
  unplaced: number;
  attribution: string;
}

/** GET /dashboard/map/place: the points of sale of one place, the most urgent first. */
export interface MapPlaceDetail {
  key: string;
  total: number;
  points: { pos_id: number; name: string; status: Light | '' }[];
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

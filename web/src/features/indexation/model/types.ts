/** The shapes of the index clause answers (docs/api/openapi.yaml, decision 0011). */

/** One skipped month of an import ("..." not yet published, "." no value). */
export interface SkippedMonth {
  month: string;
  line: number;
  reason: string;
}

/** The answer of POST /priceindexes/{id}/import. */
export interface ImportSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: SkippedMonth[] | null;
}

export type AdjustmentStatus = 'proposed' | 'approved' | 'rejected';

/** An indexadjustment row as the generic API and the run answer it. */
export interface Adjustment {
  indexadjustment_id: number;
  recurringpayment_id: number;
  recurringpayment_id__label?: string;
  indexclause_id: number;
  indexclause_id__label?: string;
  indexadjustment_reference_month: string;
  indexadjustment_current_month: string;
  indexadjustment_reference_value: number | string;
  indexadjustment_current_value: number | string;
  indexadjustment_change_points: number | string;
  indexadjustment_change_percent: number | string;
  indexadjustment_old_amount: number | string;
  indexadjustment_new_amount: number | string;
  indexadjustment_effective_date: string;
  indexadjustment_status: AdjustmentStatus;
  row_version?: number;
}

/** The rule that produced an adjustment, in words (POST /indexadjustments/explanations). */
export interface Explanation {
  indexadjustment_id: number;
  text: string;
  /** Set for an upward-only clause: such a clause may be void (§ 2 Abs. 3 PrKlG). */
  warning?: string;
}

/** A payment a run could not evaluate. */
export interface RunError {
  recurringpayment_id: number;
  month?: string;
  detail: string;
}

/** The answer of POST /indexadjustments/run. */
export interface RunAnswer {
  proposals: Adjustment[] | null;
  created: number;
  evaluated: number;
  errors: RunError[] | null;
}

export interface ScheduleDue {
  recurringpayment_id: number;
  recurringpayment_name: string;
  due_date: string;
  amount: number | string;
}

export interface ScheduleMonth {
  month: string;
  payments: ScheduleDue[] | null;
  total: number | string;
}

/** The answer of GET /contracts/{id}/schedule. */
export interface Schedule {
  contract_id: number;
  from: string;
  to: string;
  months: ScheduleMonth[] | null;
  years: { year: number; total: number | string }[] | null;
  total: number | string;
}

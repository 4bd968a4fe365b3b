/** The spreadsheet import's answers (docs/api/openapi.yaml: /uploadxlsx/, /imports). */

/** A field a column may be mapped to. */
export interface FieldChoice {
  name: string;
  label: string;
  required: boolean;
  reference?: string;
}

/** The answer to an upload. */
export interface UploadAnswer {
  import_id: number;
  entity: string;
  columns: string[];
  suggested_mapping: Record<string, string>;
  rows: number;
  preview: string[][];
  fields: FieldChoice[];
}

/** One refused value of one row: `row` is the line in the file. */
export interface RowError {
  row: number;
  loc: (string | number)[];
  column?: string;
  msg: string;
  type?: string;
}

/** The answer to a validation. */
export interface ValidateAnswer {
  valid: number;
  invalid: number;
  error_count: number;
  errors: RowError[];
}

/** An import as GET /imports/{id} answers it. */
export interface ImportRecord {
  import_id: number;
  entity: string;
  file_name: string;
  /** committing: a large import's commit job is enqueued or running. */
  state: 'uploaded' | 'valid' | 'invalid' | 'committing' | 'committed' | 'undone';
  rows: number;
  valid: number;
  error_count: number;
  created: number;
  created_at: string;
  report?: RowError[];
  progress?: { done: number; total: number };
  /** Why the last commit job failed for good (the import is valid again). */
  commit_error?: string;
}

/** The entities the server imports (internal/imports Importable). */
export const IMPORTABLE = ['company', 'partnercompany', 'contactperson', 'pos', 'location', 'area', 'contract', 'recurringpayment'] as const;

/** The parts of the contract workbook, in its sheets' order. */
export const CONTRACT_PARTS = ['contract', 'area', 'deadline', 'payment'] as const;

/** One refused value of the contract workbook: sheet, line and field. */
export interface ContractRowError {
  sheet: string;
  row: number;
  loc: (string | number)[];
  column?: string;
  msg: string;
  type?: string;
}

/** The answer to a check or an import of a contract workbook. */
export interface ContractAnswer {
  rows: Partial<Record<(typeof CONTRACT_PARTS)[number], number>>;
  valid: Partial<Record<(typeof CONTRACT_PARTS)[number], number>>;
  errors: ContractRowError[];
  committed: boolean;
  contracts?: Record<string, number>;
  /** The import a commit is listed as (GET /imports): named in the history rows, undone with POST /imports/{id}/undo. */
  import_id?: number;
}

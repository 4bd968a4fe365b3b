import type { Row } from '../../../lib/table-definition';

/** A point the generator or a person wrote, as the positions grid shows it beside its position. */
export interface Finding {
  pointId: number;
  rule: string | null;
  title: string;
  claim: number | null;
}

/**
 * The points of the invoice's contradictions by the position they object to
 * (points about the whole invoice, with no position, under 0), hidden points
 * left out.
 */
export function findingsByPosition(contradictions: readonly { points?: Row[] }[] | undefined): Map<number, Finding[]> {
  const out = new Map<number, Finding[]>();
  for (const c of contradictions ?? []) {
    for (const p of c.points ?? []) {
      if (Number(p.hidden ?? 0) === 1) continue;
      const pos = Number(p.invoiceposition_id ?? 0) || 0;
      const list = out.get(pos) ?? [];
      list.push({
        pointId: Number(p.contradictionpoint_id),
        rule: typeof p.contradictionpoint_rule === 'string' && p.contradictionpoint_rule ? p.contradictionpoint_rule : null,
        title: String(p.contradictionpoint_title ?? ''),
        claim: p.contradictionpoint_claim === null || p.contradictionpoint_claim === undefined ? null : Number(p.contradictionpoint_claim),
      });
      out.set(pos, list);
    }
  }
  return out;
}

/**
 * An amount in the interface language with two places. A decimal string (the
 * server's exact sums) is formatted as the string itself, never through a
 * binary float; null and '' show as an en dash.
 */
export function formatAmount(value: unknown, lang: string): string {
  if (value === null || value === undefined || value === '') return '–';
  const fmt = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (typeof value === 'string') {
    if (!/^-?\d+(\.\d+)?$/.test(value)) return value;
    return fmt.format(value as unknown as number);
  }
  const n = Number(value);
  return Number.isFinite(n) ? fmt.format(n) : '–';
}

/** A number of units (up to four places). */
export function formatUnits(value: unknown, lang: string): string {
  if (value === null || value === undefined || value === '') return '–';
  const n = Number(value);
  return Number.isFinite(n) ? new Intl.NumberFormat(lang, { maximumFractionDigits: 4 }).format(n) : '–';
}

/** A yes/no field's value as a boolean (the API sends 0/1). */
export function truthy(value: unknown): boolean {
  return value === true || Number(value) === 1;
}

/** The sum of a list of decimal strings or numbers, exact to the cent (claims of picked contradictions). */
export function sumCents(values: readonly unknown[]): string {
  let cents = 0n;
  for (const v of values) {
    if (v === null || v === undefined || v === '') continue;
    const s = typeof v === 'number' ? v.toFixed(2) : String(v);
    const m = /^(-?)(\d+)(?:\.(\d{0,2})\d*)?$/.exec(s.trim());
    if (!m) continue;
    const c = BigInt(m[2]) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
    cents += m[1] === '-' ? -c : c;
  }
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

import type { TableDefinition } from '../../../lib/table-definition';

/** A field's label in the interface language from the served definition (the field's name while it loads). */
export function fieldLabel(def: TableDefinition | undefined, field: string): string {
  return def?.attributes.find((a) => a.attribute === field)?.attribute_i18n || field;
}

/** The generator's rules (decisions 0016 and 0061), by their code, as the server's contradictionpoint_rule offers them. */
export const RULES = [
  'costtype_not_agreed',
  'not_apportionable',
  'share_exceeded',
  'flat_rate_changed',
  'admin_costs_over_cap',
  'admin_costs_above_customary',
  'maintenance_over_cap',
  'maintenance_without_cap',
  'billing_period_over_agreed',
  'billing_period_over_12_months',
] as const;

/** Whether `code` is one of the generator's rules (a text `invoices.rule.<code>` exists for it). */
export function isRule(code: string | null): code is (typeof RULES)[number] {
  return code !== null && (RULES as readonly string[]).includes(code);
}

import type { TableDefinition } from '../../../lib/table-definition';

/** A field's label in the interface language from the served definition (the field's name while it loads). */
export function fieldLabel(def: TableDefinition | undefined, field: string): string {
  return def?.attributes.find((a) => a.attribute === field)?.attribute_i18n || field;
}

/** The generator's rules (decision 0016), by their code. */
export const RULES = ['costtype_not_agreed', 'not_apportionable', 'share_exceeded', 'flat_rate_changed', 'billing_period_over_12_months'] as const;

/** Whether `code` is one of the generator's rules (a text `invoices.rule.<code>` exists for it). */
export function isRule(code: string | null): code is (typeof RULES)[number] {
  return code !== null && (RULES as readonly string[]).includes(code);
}

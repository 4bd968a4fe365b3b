import '@mantine/dates/styles.css';
import { SimpleGrid } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { type AttributeDefinition, type Cond, companionFields, embeddedFields, type Row } from '../../lib/table-definition';
import { isRequiredNow, isVisible, isWritable } from '../../lib/validation';
import { FieldInput, type FormServices } from './field-input';
import type { RecordFormState } from './use-record-form';

export interface RecordFormProps {
  form: RecordFormState;
  row?: Row | null;
  services?: FormServices;
  /** Columns of the grid (1 in modals and popups). */
  columns?: number;
  /**
   * The entity (or relation, for a link's attributes) the record belongs to:
   * its list fields take their options from the server's options action.
   */
  entity?: string;
  /** The record's key field: the page shows it by its title ("#12"), not as a field. */
  primaryKey?: string;
  /**
   * Values of the record the form does not show (the contract of a payment
   * in contract step 2): its list fields' options are narrowed by them too.
   */
  context?: Record<string, unknown>;
}

const WIDE_KINDS = new Set(['textarea', 'html']);

/** Fields named by options_filled conditions: their options must be known. */
export function optionsFilledFields(attrs: readonly AttributeDefinition[]): Set<string> {
  const out = new Set<string>();
  const walk = (c: Cond | undefined) => {
    if (!c) return;
    if (c.op === 'options_filled' && c.field) out.add(c.field);
    c.conds?.forEach(walk);
  };
  for (const a of attrs) {
    walk(a.show_when);
    walk(a.required_when);
    for (const r of a.rules ?? []) walk(r.when);
  }
  return out;
}

/** The fields of a generic form, in definition order, honouring visibility, read-only and rules. */
export function RecordForm({ form, row, services, columns = 2, entity, primaryKey, context }: RecordFormProps) {
  const { i18n } = useTranslation();
  const { attributes, values, errors, env, mode } = form;
  const creating = mode === 'create';
  const embedded = embeddedFields(attributes);
  // One label per field: a reference shows its row's label, so its derived copy goes.
  const companions = companionFields(attributes);
  const byName = new Map(attributes.map((a) => [a.attribute, a]));
  const needOptions = optionsFilledFields(attributes);
  const shown = attributes.filter((a: AttributeDefinition) => {
    if (embedded.has(a.attribute) || companions.has(a.attribute) || a.attribute === primaryKey) return false;
    if (a.write_only && mode === 'view') return false;
    if (creating && (a.read_only || a.derived) && !a.default) return false; // nothing to show yet
    return isVisible(a, values, env);
  });
  return (
    <DatesProvider settings={{ firstDayOfWeek: 1, locale: i18n.language }}>
      <SimpleGrid cols={{ base: 1, sm: columns }} spacing="md" verticalSpacing="sm">
        {shown.map((attr) => {
          const unitAttr = attr.unit ? byName.get(attr.unit.field) : undefined;
          const readOnly = mode === 'view' || !isWritable(attr, creating);
          return (
            <div key={attr.attribute} style={WIDE_KINDS.has(attr.attribute_datatype_hint) ? { gridColumn: '1 / -1' } : undefined}>
              <FieldInput
                attr={attr}
                value={values[attr.attribute]}
                onChange={(v) => form.setValue(attr.attribute, v)}
                onBlur={() => form.touch(attr.attribute)}
                error={errors[attr.attribute]}
                required={!readOnly && isRequiredNow(attr, values, env)}
                readOnly={readOnly}
                values={context ? { ...context, ...values } : values}
                row={row}
                unitAttr={unitAttr}
                unitError={unitAttr ? errors[unitAttr.attribute] : undefined}
                onUnitChange={unitAttr ? (v) => form.setValue(unitAttr.attribute, v) : undefined}
                attributes={attributes}
                services={services}
                onOptions={needOptions.has(attr.attribute) ? (count) => form.reportOptions(attr.attribute, count) : undefined}
                setValue={form.setValue}
                entity={entity}
              />
            </div>
          );
        })}
      </SimpleGrid>
    </DatesProvider>
  );
}

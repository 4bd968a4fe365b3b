import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AttributeDefinition, Row } from '../../lib/table-definition';
import { textAttr } from '../../test/fake-tables';
import { renderUi } from '../../test/render-ui';
import { RecordForm } from './record-form';
import { useRecordForm } from './use-record-form';

/** An index clause field with its served help text (attribute_help, issue 39). */
const CLAUSE: AttributeDefinition[] = [
  textAttr('indexclause_percent_decimals', 'Rate rounded to decimals', {
    type: 'int',
    attribute_datatype_hint: 'number',
    attribute_help: 'The rate of change is rounded half up to this many decimals.',
  }),
  textAttr('indexclause_name', 'Name'),
];
const ROW: Row = { indexclause_percent_decimals: 1, indexclause_name: 'VPI 5 %' };

function Edit() {
  const form = useRecordForm(CLAUSE, 'update', ROW);
  return <RecordForm form={form} row={ROW} primaryKey="indexclause_id" />;
}

describe('help texts', () => {
  it('shows a field help text under its label, as its accessible description, and none for a field without one', async () => {
    renderUi(<Edit />);
    const input = await screen.findByLabelText('Rate rounded to decimals');
    expect(input).toHaveAccessibleDescription('The rate of change is rounded half up to this many decimals.');
    expect(screen.getByLabelText('Name')).not.toHaveAccessibleDescription();
  });
});

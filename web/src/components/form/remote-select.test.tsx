import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AttributeDefinition } from '../../lib/table-definition';
import { json, mockFetch, type RecordedCall } from '../../test/fetch-mock';
import { renderUi } from '../../test/render-ui';
import { FilterPanel } from '../data-table/filter-panel';
import { RecordForm } from './record-form';
import { RemoteSelect } from './remote-select';
import { useRecordForm } from './use-record-form';

interface OptionsBody {
  action: string;
  entity: string;
  field: string;
  data: Record<string, unknown>;
  filter_all?: string;
  per_page: number;
  current_page: number;
}

const CONTACTS = [
  { value: 11, label: 'Anna Berg', company_id: 1 },
  { value: 12, label: 'Bernd Tal', company_id: 1 },
  { value: 21, label: 'Clara Hof', company_id: 2 },
];

/** A fake options action: narrows contact persons by the record's company, searches labels. */
function serveOptions(extra: { hasMore?: boolean } = {}) {
  return mockFetch((call: RecordedCall) => {
    const body = call.body as OptionsBody;
    if (body.action !== 'options') return json(422, { detail: [{ loc: ['body', 'action'], msg: 'unexpected', type: 'enum' }] });
    let rows = CONTACTS.filter((c) => c.company_id === body.data.company_id);
    if (body.filter_all) rows = rows.filter((c) => c.label.toLowerCase().includes(body.filter_all!.toLowerCase()));
    return json(200, { data: rows.map(({ value, label }) => ({ value, label })), has_more: extra.hasMore ?? false });
  });
}

const optionCalls = (calls: RecordedCall[]) => calls.filter((c) => (c.body as OptionsBody | undefined)?.action === 'options').map((c) => c.body as OptionsBody);

/** The visible input labelled `label` (Mantine also labels its hidden inputs and lists). */
function field(label: RegExp): HTMLElement {
  const found = screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden');
  if (!found) throw new Error(`no input labelled ${label}`);
  return found;
}

const CONTACT_REF = { table: 'contactperson', key: 'contactperson_id', label: [], where: [{ target: 'company_id', source: 'company_id' }] };

function Picker({ record, extraAll = false }: { record: Record<string, unknown>; extraAll?: boolean }) {
  const [value, setValue] = useState<number | number[] | null>(null);
  return (
    <>
      <RemoteSelect
        refDef={CONTACT_REF}
        label="Contact person"
        value={value}
        onChange={setValue}
        source={{ entity: 'pos', field: 'contactperson_id' }}
        record={record}
        extraOptions={extraAll ? [{ value: '-1', label: 'All' }] : undefined}
        nothingFound="Contact person is not available"
      />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('list field options through the options action', () => {
  it('asks the server for the options of the field of the entity being edited, with the siblings its narrowing reads', async () => {
    const server = serveOptions();
    const user = userEvent.setup();
    const file = new File(['x'], 'a.pdf');
    renderUi(<Picker record={{ pos_name: 'Halle', company_id: 1, company_id__label: 'Bergkamm AG', user_password: 'secret', document_file: file }} />);
    await user.click(field(/^Contact person/));
    expect(await screen.findByRole('option', { name: 'Anna Berg' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Bernd Tal' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Clara Hof' })).toBeNull();
    const [first] = optionCalls(server.calls);
    expect(server.calls[0].url).toBe('/api/?pos');
    // Only what the narrowing reads: no labels, files, passwords or other fields.
    expect(first).toEqual({
      action: 'options',
      entity: 'pos',
      field: 'contactperson_id',
      data: { company_id: 1 },
      per_page: 50,
      current_page: 1,
    });
    await user.click(screen.getByRole('option', { name: 'Bernd Tal' }));
    expect(screen.getByTestId('value')).toHaveTextContent('12');
  });

  it('searches from 2 typed characters, 500 ms after typing stops', async () => {
    const server = serveOptions();
    const user = userEvent.setup();
    renderUi(<Picker record={{ company_id: 1 }} />);
    const input = field(/^Contact person/);
    await user.click(input);
    await screen.findByRole('option', { name: 'Anna Berg' });
    await user.type(input, 'A');
    await new Promise((r) => setTimeout(r, 700));
    expect(optionCalls(server.calls).some((b) => b.filter_all !== undefined)).toBe(false);
    await user.type(input, 'n');
    await waitFor(() => expect(optionCalls(server.calls).some((b) => b.filter_all === 'An')).toBe(true), { timeout: 2000 });
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).queryByRole('option', { name: 'Anna Berg' })).not.toBeNull());
    await waitFor(() => expect(within(listbox).queryByRole('option', { name: 'Bernd Tal' })).toBeNull());
  });

  it('says "{field} is not available" when the server offers nothing, and keeps "All" (-1)', async () => {
    serveOptions();
    const user = userEvent.setup();
    const { unmount } = renderUi(<Picker record={{ company_id: 9 }} />);
    await user.click(field(/^Contact person/));
    expect(await screen.findByText('Contact person is not available')).toBeInTheDocument();
    unmount();

    renderUi(<Picker record={{ company_id: 9 }} extraAll />);
    await user.click(field(/^Contact person/));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    expect(screen.getByTestId('value')).toHaveTextContent('-1');
  });

  it('says when more options match than one page shows', async () => {
    serveOptions({ hasMore: true });
    const user = userEvent.setup();
    renderUi(<Picker record={{ company_id: 1 }} />);
    await user.click(field(/^Contact person/));
    const hint = await screen.findByRole('option', { name: 'More entries match: type to narrow the list' });
    expect(hint).toHaveAttribute('data-combobox-disabled', 'true');
  });

  it('asks again when a sibling field the options depend on changes', async () => {
    const server = serveOptions();
    const user = userEvent.setup();
    const attrs: AttributeDefinition[] = [
      {
        attribute: 'company_id',
        attribute_i18n: 'Company',
        attribute_regexp: '',
        attribute_regexp_failure_message: '',
        attribute_datatype_hint: 'custom-select',
        attribute_datatype_len: 0,
        type: 'id',
        required: false,
        rules: [],
        options: [
          { value: 1, label: 'Bergkamm AG' },
          { value: 2, label: 'Tiefblau GmbH' },
        ],
      },
      {
        attribute: 'contactperson_id',
        attribute_i18n: 'Contact person',
        attribute_regexp: '',
        attribute_regexp_failure_message: '',
        attribute_datatype_hint: 'list',
        attribute_datatype_len: 0,
        type: 'id',
        required: false,
        rules: [],
        ref: CONTACT_REF,
      },
    ];
    function Form() {
      const form = useRecordForm(attrs, 'update', { company_id: 1, contactperson_id: null });
      return <RecordForm form={form} entity="pos" />;
    }
    renderUi(<Form />);
    await user.click(field(/^Contact person/));
    expect(await screen.findByRole('option', { name: 'Anna Berg' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(field(/^Company/));
    await user.click(await screen.findByRole('option', { name: 'Tiefblau GmbH' }));
    await user.click(field(/^Contact person/));
    expect(await screen.findByRole('option', { name: 'Clara Hof' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Anna Berg' })).toBeNull();
    const bodies = optionCalls(server.calls);
    expect(bodies.at(-1)).toMatchObject({ entity: 'pos', field: 'contactperson_id', data: { company_id: 2 } });
  });

  it('offers the list filter the options of the listed entity field', async () => {
    const server = mockFetch(() => json(200, { data: [{ value: 3, label: 'Nordhandel Retail GmbH' }], has_more: false }));
    const user = userEvent.setup();
    const companyAttr: AttributeDefinition = {
      attribute: 'company_id',
      attribute_i18n: 'Company',
      attribute_regexp: '',
      attribute_regexp_failure_message: '',
      attribute_datatype_hint: 'list',
      attribute_datatype_len: 0,
      type: 'id',
      required: true,
      rules: [],
      sortable: true,
      ref: { table: 'company', key: 'company_id', label: ['company_name'] },
    };
    const onChange = vi.fn();
    renderUi(<FilterPanel entity="pos" attributes={[companyAttr]} filters={[]} onChange={onChange} />);
    await user.click(field(/^Company/));
    await user.click(await screen.findByRole('option', { name: 'Nordhandel Retail GmbH' }));
    expect(onChange).toHaveBeenCalledWith([{ field: 'company_id', op: 'in', value: [3] }]);
    expect(optionCalls(server.calls)[0]).toMatchObject({ action: 'options', entity: 'pos', field: 'company_id' });
  });

  it('shows the label of a filter value that came from a link or a saved view, not its id', async () => {
    mockFetch(() => json(200, { data: [{ value: 3, label: 'Nordhandel Retail GmbH' }], has_more: false }));
    const companyAttr: AttributeDefinition = {
      attribute: 'company_id',
      attribute_i18n: 'Company',
      attribute_regexp: '',
      attribute_regexp_failure_message: '',
      attribute_datatype_hint: 'list',
      attribute_datatype_len: 0,
      type: 'id',
      required: true,
      rules: [],
      sortable: true,
      ref: { table: 'company', key: 'company_id', label: ['company_name'] },
    };
    renderUi(<FilterPanel entity="pos" attributes={[companyAttr]} filters={[{ field: 'company_id', op: 'in', value: [3] }]} onChange={vi.fn()} />);
    expect(await screen.findByText('Nordhandel Retail GmbH')).toBeInTheDocument();
    expect(screen.queryByText('3')).toBeNull();
  });

  it('shows the label of a single-value filter from a dashboard link (eq), and replaces it by the list chosen', async () => {
    mockFetch(() =>
      json(200, {
        data: [
          { value: 3, label: 'Nordhandel Retail GmbH' },
          { value: 4, label: 'Nordhandel Outlet GmbH' },
        ],
        has_more: false,
      }),
    );
    const user = userEvent.setup();
    const companyAttr: AttributeDefinition = {
      attribute: 'company_id',
      attribute_i18n: 'Company',
      attribute_regexp: '',
      attribute_regexp_failure_message: '',
      attribute_datatype_hint: 'list',
      attribute_datatype_len: 0,
      type: 'id',
      required: true,
      rules: [],
      sortable: true,
      ref: { table: 'company', key: 'company_id', label: ['company_name'] },
    };
    const onChange = vi.fn();
    renderUi(<FilterPanel entity="pos" attributes={[companyAttr]} filters={[{ field: 'company_id', op: 'eq', value: 3 }]} onChange={onChange} />);
    expect(await screen.findByText('Nordhandel Retail GmbH')).toBeInTheDocument();
    await user.click(field(/^Company/));
    await user.click(await screen.findByRole('option', { name: 'Nordhandel Outlet GmbH' }));
    expect(onChange).toHaveBeenCalledWith([{ field: 'company_id', op: 'in', value: [3, 4] }]);
  });

  it('shows a chosen option of a single-value filter (eq) from a link', () => {
    const statusAttr: AttributeDefinition = {
      attribute: 'contractaction_status',
      attribute_i18n: 'Status',
      attribute_regexp: '',
      attribute_regexp_failure_message: '',
      attribute_datatype_hint: 'text',
      attribute_datatype_len: 0,
      type: 'string',
      required: false,
      rules: [],
      sortable: true,
      options: [
        { value: 'active', label: 'Active' },
        { value: 'done', label: 'Done' },
      ],
    };
    renderUi(<FilterPanel attributes={[statusAttr]} filters={[{ field: 'contractaction_status', op: 'eq', value: 'active' }]} onChange={vi.fn()} />);
    // Picked options show as pills in the input.
    const pills = screen.getAllByText('Active').filter((el) => el.closest('.mantine-Pill-root'));
    expect(pills).toHaveLength(1);
  });

  it('lists a filter field narrowed by a sibling without that narrowing: a filter has no record', async () => {
    const server = mockFetch(() =>
      json(200, {
        data: { data: [{ contactperson_id: 21, contactperson_firstname: 'Clara', contactperson_lastname: 'Hof' }], current_page: 1, per_page: 50, from: 1, to: 1, has_more: false },
        attributes: [],
      }),
    );
    const user = userEvent.setup();
    const contactAttr: AttributeDefinition = {
      attribute: 'contactperson_id',
      attribute_i18n: 'Contact person',
      attribute_regexp: '',
      attribute_regexp_failure_message: '',
      attribute_datatype_hint: 'list',
      attribute_datatype_len: 0,
      type: 'id',
      required: false,
      rules: [],
      sortable: true,
      ref: { ...CONTACT_REF, label: ['contactperson_firstname', 'contactperson_lastname'] },
    };
    renderUi(<FilterPanel entity="pos" attributes={[contactAttr]} filters={[]} onChange={vi.fn()} />);
    await user.click(field(/^Contact person/));
    expect(await screen.findByRole('option', { name: 'Clara Hof' })).toBeInTheDocument();
    const body = server.calls[0].body as { action: string; entity: string; data?: unknown };
    expect(body).toMatchObject({ action: 'read-rich', entity: 'contactperson' });
    expect(body.data).toBeUndefined();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AttributeDefinition, Rule } from '../../lib/table-definition';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderUi } from '../../test/render-ui';
import type { FormServices } from './field-input';
import { RecordForm } from './record-form';
import { type FormMode, initialValues, payloadOf, useRecordForm } from './use-record-form';

function attr(attribute: string, label: string, extra: Partial<AttributeDefinition> = {}, rules: Rule[] = []): AttributeDefinition {
  return {
    attribute,
    attribute_i18n: label,
    attribute_regexp: '',
    attribute_regexp_failure_message: '',
    attribute_datatype_hint: 'text',
    attribute_datatype_len: 0,
    type: 'string',
    required: rules.some((r) => r.rule === 'required'),
    rules,
    sortable: true,
    ...extra,
  };
}

const ATTRS: AttributeDefinition[] = [
  attr('id', 'Id', { type: 'id', read_only: true, hidden_on_create: true, attribute_datatype_hint: 'number' }),
  attr('name', 'Name', { attribute_datatype_len: 10 }, [{ rule: 'required' }, { rule: 'max', value: 10 }]),
  attr('notes', 'Notes', { attribute_datatype_hint: 'textarea' }),
  attr('team_type', 'Team type', {
    attribute_datatype_hint: 'custom-select',
    options: [
      { value: 'intern', label: 'Internal' },
      { value: 'extern_client', label: 'External client' },
    ],
  }),
  attr('parent_note', 'Parent', { show_when: { op: 'in', field: 'team_type', values: ['extern_client'] } }, [{ rule: 'required' }]),
  attr('realised', 'Realised', { type: 'bool', attribute_datatype_hint: 'yesno', default: 0 }),
  attr('active', 'Active', { type: 'bool', attribute_datatype_hint: 'checkbox', default: 0 }),
  attr('flat_rate', 'Flat rate', { type: 'bool', attribute_datatype_hint: 'boolean' }),
  attr('color', 'Colour', { attribute_datatype_hint: 'color' }),
  attr('smiley', 'Smiley', { attribute_datatype_hint: 'smiley' }),
  attr('secret', 'Password', { attribute_datatype_hint: 'password', generate: true, write_only: true }),
  attr('begin', 'Begin date', { type: 'date', attribute_datatype_hint: 'date' }),
  attr('end', 'End date', { type: 'date', attribute_datatype_hint: 'date' }, [{ rule: 'date_after', field: 'begin' }]),
  attr('internal_id', 'Internal number', { type: 'int', attribute_datatype_hint: 'number', default: 56 }, [{ rule: 'required' }]),
  attr('percent', 'Percent change', { type: 'decimal', attribute_datatype_hint: 'decimal' }),
  attr('points', 'Point change', { type: 'decimal', attribute_datatype_hint: 'decimal' }, [
    { rule: 'required_if', when: { op: 'empty', field: 'percent' } },
  ]),
  attr('space', 'Space', { type: 'decimal', attribute_datatype_hint: 'decimal', unit: { field: 'unit_id', key: 'area' } }),
  attr('unit_id', 'Unit', { type: 'id', attribute_datatype_hint: 'list', ref: { table: 'unit', key: 'unit_id', label: ['unit_name'] } }),
  attr('company_id', 'Company', { type: 'id', attribute_datatype_hint: 'list', ref: { table: 'company', key: 'company_id', label: ['company_name'] } }, [
    { rule: 'required' },
  ]),
  attr('team_ids', 'Teams', {
    type: 'id',
    attribute_datatype_hint: 'list',
    multiple: true,
    ref: { table: 'team', key: 'team_id', label: ['team_name'] },
  }),
];

const ROWS: Record<string, Record<string, unknown>[]> = {
  company: [
    { company_id: 1, company_name: 'Bergkamm AG' },
    { company_id: 2, company_name: 'Tiefblau GmbH' },
  ],
  team: [
    { team_id: 6, team_name: 'MVM' },
    { team_id: 7, team_name: 'FM' },
  ],
  unit: [
    { unit_id: 1, unit_name: 'm²', unit_key: 'area' },
    { unit_id: 2, unit_name: 'ft²', unit_key: 'area' },
  ],
};

function serve() {
  return mockFetch((call) => {
    const body = call.body as { entity?: string; filter_all?: string; data?: Record<string, unknown> };
    const rows = ROWS[body.entity ?? ''] ?? [];
    const hits = body.filter_all ? rows.filter((r) => JSON.stringify(r).toLowerCase().includes(body.filter_all!.toLowerCase())) : rows;
    return json(200, { data: { data: hits, current_page: 1, per_page: 50, from: 1, to: hits.length, has_more: false }, attributes: [] });
  });
}

function Harness({ mode = 'create', attrs = ATTRS, services }: { mode?: FormMode; attrs?: AttributeDefinition[]; services?: FormServices }) {
  const form = useRecordForm(attrs, mode);
  const [sent, setSent] = useState<string>('');
  return (
    <div>
      <RecordForm form={form} services={services} />
      <button type="button" onClick={() => setSent(form.validate() ? JSON.stringify(form.payload()) : 'invalid')}>
        Submit
      </button>
      <pre data-testid="payload">{sent}</pre>
    </div>
  );
}

/** The visible input labelled `label` (Mantine also labels its hidden inputs and lists). */
function field(label: RegExp): HTMLElement {
  const found = screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden');
  if (!found) throw new Error(`no input labelled ${label}`);
  return found;
}

async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(field(new RegExp(`^${label}`)));
  await user.click(await screen.findByRole('option', { name: option }));
}

afterEach(() => vi.unstubAllGlobals());

describe('the generic form', () => {
  it('applies defaults on create: booleans 0, the served default, hidden_on_create fields left out', () => {
    const values = initialValues(ATTRS, 'create');
    expect(values.realised).toBe(0);
    expect(values.flat_rate).toBe(0);
    expect(values.internal_id).toBe(56);
    expect(values.team_ids).toEqual([]);
    const payload = payloadOf(ATTRS, { ...values, name: 'x' }, true, {});
    expect(payload).not.toHaveProperty('id');
    expect(payload).not.toHaveProperty('parent_note'); // show_when does not hold
    expect(payload.flat_rate).toBe(0);
    expect(payload).not.toHaveProperty('secret'); // an empty password is not sent
  });

  it('turns empty booleans of a stored row into 0 and shows read_only fields read-only', async () => {
    serve();
    const row = { id: 9, name: 'Stored', flat_rate: null };
    expect(initialValues(ATTRS, 'update', row).flat_rate).toBe(0);
    function View() {
      const form = useRecordForm(ATTRS, 'update', row);
      return <RecordForm form={form} row={row} />;
    }
    renderUi(<View />);
    expect(await screen.findByRole('textbox', { name: 'Id' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: /^Name/ })).not.toHaveAttribute('readonly');
  });

  it('renders every field kind and yields the right values', async () => {
    serve();
    const user = userEvent.setup();
    const generatePassword = vi.fn(() => Promise.resolve('Gen3rated!Pass'));
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderUi(<Harness services={{ generatePassword }} />);

    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Halle 1');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'line one');
    await pick(user, 'Team type', 'External client');
    // show_when: the parent field appears for external clients
    await user.type(await screen.findByRole('textbox', { name: /^Parent/ }), 'P');
    await pick(user, 'Realised', 'Yes');
    await user.click(screen.getByRole('checkbox', { name: 'Active' }));
    await user.click(screen.getByRole('switch', { name: 'Flat rate' }));
    await user.type(screen.getByRole('textbox', { name: 'Colour' }), '#ff0000');
    await user.click(screen.getByText('🙂'));
    await user.click(screen.getByRole('button', { name: 'Generate a password and copy it' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Gen3rated!Pass'));
    expect(await screen.findByText('Password copied')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Begin date' }), '02/01/2024');
    await user.type(screen.getByRole('textbox', { name: /^Percent change/ }), '2.5');
    await user.type(screen.getByRole('textbox', { name: /^Space/ }), '12.75');
    await pick(user, 'Unit', 'm²');
    await pick(user, 'Company', 'Tiefblau GmbH');
    await pick(user, 'Teams', 'FM');

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const payload = JSON.parse(screen.getByTestId('payload').textContent ?? '{}') as Record<string, unknown>;
    expect(payload).toMatchObject({
      name: 'Halle 1',
      notes: 'line one',
      team_type: 'extern_client',
      parent_note: 'P',
      realised: 1,
      active: 1,
      flat_rate: 1,
      color: '#ff0000',
      smiley: '🙂',
      secret: 'Gen3rated!Pass',
      begin: '2024-02-01',
      end: null,
      internal_id: 56,
      percent: 2.5,
      points: null,
      space: 12.75,
      unit_id: 1,
      company_id: 2,
      team_ids: [7],
    });
  }, 40_000); // many typed inputs: slow on a busy machine

  it('shows client messages on their fields: required, max, conditional requirement, date_after, unit selector', async () => {
    serve();
    const user = userEvent.setup();
    renderUi(<Harness />);
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Far too long a name');
    await user.type(screen.getByRole('textbox', { name: 'Begin date' }), '02/10/2024');
    await user.type(screen.getByRole('textbox', { name: 'End date' }), '02/01/2024');
    await user.type(screen.getByRole('textbox', { name: /^Space/ }), '3');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByTestId('payload')).toHaveTextContent('invalid');
    expect(screen.getByText('Name must contain maximum 10 characters')).toBeInTheDocument();
    expect(screen.getByText('This date must be after Begin date')).toBeInTheDocument();
    expect(screen.getByText('Company is required')).toBeInTheDocument();
    // points is required while percent is empty
    expect(screen.getByText('Point change is required')).toBeInTheDocument();
    // a unit selector is required when shown
    expect(screen.getByText('Unit is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Percent change/ }), '1');
    expect(screen.queryByText('Point change is required')).toBeNull();
  }, 40_000); // many typed inputs: slow on a busy machine

  it('says "{field} is not available" when a list is empty', async () => {
    mockFetch(() => json(200, { data: { data: [], current_page: 1, per_page: 50, from: null, to: null, has_more: false }, attributes: [] }));
    const user = userEvent.setup();
    renderUi(<Harness attrs={[ATTRS.find((a) => a.attribute === 'company_id')!]} />);
    await screen.findAllByLabelText(/^Company/);
    await user.click(field(/^Company/));
    expect(await screen.findByText('Company is not available')).toBeInTheDocument();
  });

  it('searches a list from 2 typed characters, 500 ms after typing stops', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderUi(<Harness attrs={[ATTRS.find((a) => a.attribute === 'company_id')!]} />);
    await screen.findAllByLabelText(/^Company/);
    const input = field(/^Company/);
    await user.click(input);
    await screen.findByRole('option', { name: 'Bergkamm AG' });
    await user.type(input, 'T');
    await new Promise((r) => setTimeout(r, 700));
    expect(server.calls.some((c) => (c.body as { filter_all?: string }).filter_all !== undefined)).toBe(false);
    await user.type(input, 'i');
    await waitFor(() => expect(server.calls.some((c) => (c.body as { filter_all?: string }).filter_all === 'Ti')).toBe(true), { timeout: 2000 });
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).queryByRole('option', { name: 'Bergkamm AG' })).toBeNull());
  });

  it('copies nothing and says so when the clipboard refuses', async () => {
    serve();
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('no')) } });
    renderUi(<Harness attrs={[ATTRS.find((a) => a.attribute === 'secret')!]} services={{ generatePassword: () => Promise.resolve('x') }} />);
    await user.click(await screen.findByRole('button', { name: 'Generate a password and copy it' }));
    expect(await screen.findByText('Can not copy!')).toBeInTheDocument();
  });

  it("shows stored date-times in the language's format and a date-picker range over its start and end fields", async () => {
    serve();
    const attrs = [
      attr('deadline', 'Deadline', { type: 'datetime', attribute_datatype_hint: 'date' }),
      attr('valid_start_date', 'Validity', { type: 'date', attribute_datatype_hint: 'date-picker' }),
      attr('valid_end_date', 'Valid until', { type: 'date', attribute_datatype_hint: 'date' }),
    ];
    const row = { deadline: '2024-05-01 10:30:00', valid_start_date: '2024-05-01', valid_end_date: '2024-05-31' };
    function View() {
      const form = useRecordForm(attrs, 'update', row);
      return <RecordForm form={form} row={row} />;
    }
    renderUi(<View />);
    expect(await screen.findByRole('button', { name: 'Deadline' })).toHaveTextContent('05/01/2024 10:30');
    expect(screen.getByRole('button', { name: 'Validity' })).toHaveTextContent('05/01/2024 – 05/31/2024');
    // The end field is part of the range, not a field of its own.
    expect(screen.queryByText('Valid until')).toBeNull();
  });

  it('takes one pdf file, refuses other types and checks the size rule', async () => {
    serve();
    const user = userEvent.setup({ applyAccept: false });
    const fileAttr = attr('document_file', 'File', { attribute_datatype_hint: 'file', accept: ['pdf'] }, [{ rule: 'size', value: 1 }]);
    renderUi(<Harness attrs={[fileAttr]} />);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Only these files are allowed: .pdf')).toBeInTheDocument();
    await user.upload(input, new File([new Uint8Array(2048)], 'contract.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('File size must be less than 1KB')).toBeInTheDocument();
    await user.upload(input, new File(['%PDF'], 'small.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(screen.getByTestId('payload').textContent ?? '{}')).toEqual({ document_file: 'small.pdf' });
  });

  it('loads the rich text editor for html fields', async () => {
    serve();
    const htmlAttr = attr('body', 'Body', { attribute_datatype_hint: 'html' });
    function View() {
      const form = useRecordForm([htmlAttr], 'update', { body: '<p>Hello <strong>world</strong></p>' });
      return <RecordForm form={form} />;
    }
    renderUi(<View />);
    expect(await screen.findByRole('button', { name: 'Bold' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByText('world')).toBeInTheDocument();
  });
});


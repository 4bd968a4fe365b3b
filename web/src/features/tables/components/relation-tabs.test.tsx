import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { fakeDefinition, fakeTables, textAttr } from '../../../test/fake-tables';
import { json, type RecordedCall } from '../../../test/fetch-mock';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';
import { changeLines } from './relation-tabs';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

/** jsdom has no layout: gives elements a box so the grid's virtual rows render. */
function withLayout() {
  const descriptors = ['offsetHeight', 'offsetWidth', 'clientHeight', 'clientWidth'].map(
    (name) => [name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)] as const,
  );
  beforeAll(() => {
    for (const [name] of descriptors) {
      Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => (name.endsWith('Width') ? 1000 : 600) });
    }
  });
  afterAll(() => {
    for (const [name, d] of descriptors) {
      if (d) Object.defineProperty(HTMLElement.prototype, name, d);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
    }
  });
}

// The generic record page hosts the tabs: a company-like table under a name
// without a custom page (companies and locations have their own pages).
const company = fakeDefinition('company', {
  table: 'customergroup',
  subject: 'customergroup',
  access_subject: 'customergroup',
  relations: [
    { name: 'pos', api: 'company_pos_rel', label: 'Points of sale', kind: 'has_many', target: 'pos', foreign_key: 'company_id' },
    { name: 'tax_rates', api: 'company_tax_rates_rel', label: 'Tax rates', kind: 'has_many', target: 'taxrate', subject: 'company_tax_rates_rel' },
  ],
});
const tables = fakeTables({
  customergroup: { def: company, rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH', row_version: 1 }] },
  pos: { def: fakeDefinition('pos'), rows: [] },
  taxrate: { def: fakeDefinition('taxrate'), rows: [] },
});

describe('relation tabs', () => {
  it('shows a tab with its own subject only to who may list that subject, whatever the target rights', async () => {
    const user = makeUser([
      { action: 'read', subject: 'customergroup' },
      { action: 'list', subject: 'pos' },
      { action: 'list', subject: 'taxrate' },
    ]);
    loginAs(user);
    renderApp('/app/table/customergroup/view/1', user, tables);
    // The first render loads the lazy route: slow on a busy machine.
    expect(await screen.findByRole('tab', { name: 'Points of sale' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Tax rates' })).not.toBeInTheDocument();
  });

  it('shows the governed tab with the right on it', async () => {
    const user = makeUser([
      { action: 'read', subject: 'customergroup' },
      { action: 'list', subject: 'company_tax_rates_rel' },
    ]);
    loginAs(user);
    renderApp('/app/table/customergroup/view/1', user, tables);
    expect(await screen.findByRole('tab', { name: 'Tax rates' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Points of sale' })).not.toBeInTheDocument();
  });

  describe('a has-many row', () => {
    withLayout();

    const pos = fakeDefinition('pos', {
      label: ['pos_name'],
      attributes: [
        textAttr('pos_id', 'Id', { type: 'id', read_only: true, hidden_on_create: true, attribute_datatype_hint: 'number' }),
        textAttr('pos_name', 'Name', { required: true, rules: [{ rule: 'required' }] }),
        textAttr('pos_branchnumber', 'Branch number'),
      ],
    });
    const childRow = { pos_id: 4, pos_name: 'Filiale Nord', pos_branchnumber: 'B-1', company_id: 1, row_version: 2 };
    const childTables = fakeTables({
      customergroup: { def: company, rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH', row_version: 1 }] },
      pos: { def: pos, rows: [childRow] },
      company_pos_rel: { def: pos, rows: [childRow] },
    });

    it('is edited in a modal: the served rules, the server 422 on its field, then saved as an update of the child', async () => {
      const user = userEvent.setup();
      const updates: RecordedCall[] = [];
      const handler = (call: RecordedCall) => {
        const body = call.body as { action?: string; data?: Record<string, unknown> } | undefined;
        if (body?.action === 'update') {
          updates.push(call);
          if (body.data?.pos_branchnumber === 'B-2')
            return json(422, { detail: [{ loc: ['body', 'pos_branchnumber'], msg: 'Branch number is already used by another record', type: 'unique' }] });
          return json(200, { data: { ...childRow, ...body.data, row_version: 3 } });
        }
        return childTables(call);
      };
      const admin = makeUser([
        { action: 'read', subject: 'customergroup' },
        { action: 'list', subject: 'pos' },
        { action: 'update', subject: 'pos' },
      ]);
      loginAs(admin);
      const { router } = renderApp('/app/table/customergroup/view/1', admin, handler);
      await user.click(await screen.findByText('Filiale Nord', {}, { timeout: 10_000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Points of sale: Filiale Nord' });
      const name = within(dialog).getByRole('textbox', { name: /^Name/ });
      const branch = within(dialog).getByRole('textbox', { name: /^Branch number/ });
      // A client rule first: nothing is sent.
      await user.clear(name);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
      expect(updates).toHaveLength(0);
      // Then the server's answer on its field.
      await user.type(name, 'Filiale Nord-Ost');
      await user.clear(branch);
      await user.type(branch, 'B-2');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Branch number is already used by another record')).toBeInTheDocument();
      await user.clear(branch);
      await user.type(branch, 'B-3');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /Points of sale/ })).toBeNull());
      expect(updates.at(-1)?.url).toBe('/api/?pos');
      expect(updates.at(-1)?.body).toMatchObject({
        action: 'update',
        entity: 'pos',
        id: 4,
        row_version: 2,
        data: { pos_name: 'Filiale Nord-Ost', pos_branchnumber: 'B-3' },
      });
      expect(router.state.location.pathname).toBe('/app/table/customergroup/view/1');
    });

    it('asks before a modal with unsaved changes closes', async () => {
      const user = userEvent.setup();
      const admin = makeUser([
        { action: 'read', subject: 'customergroup' },
        { action: 'list', subject: 'pos' },
        { action: 'update', subject: 'pos' },
      ]);
      loginAs(admin);
      renderApp('/app/table/customergroup/view/1', admin, childTables);
      await user.click(await screen.findByText('Filiale Nord', {}, { timeout: 10_000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Points of sale: Filiale Nord' });
      await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), ' draft');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      const ask = await screen.findByRole('dialog', { name: 'Unsaved changes' });
      await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
      expect(screen.getByRole('dialog', { name: 'Points of sale: Filiale Nord' })).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Discard changes' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /Points of sale/ })).toBeNull());
    });

    it('opens the child record instead without the right to update it', async () => {
      const user = userEvent.setup();
      const reader = makeUser([
        { action: 'read', subject: 'customergroup' },
        { action: 'list', subject: 'pos' },
        { action: 'read', subject: 'pos' },
      ]);
      loginAs(reader);
      const { router } = renderApp('/app/table/customergroup/view/1', reader, childTables);
      await user.click(await screen.findByText('Filiale Nord', {}, { timeout: 10_000 }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/app/table/pos/view/4'));
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  describe('a link row', () => {
    withLayout();

    const contract = fakeDefinition('contract', {
      relations: [
        {
          name: 'costtype',
          api: 'contract_costtype_rel',
          label: 'Cost types',
          kind: 'many_to_many',
          target: 'costtype',
          link: 'contract_costtype',
          own_key: 'contract_id',
          target_key: 'costtype_id',
          attributes: [textAttr('comment', 'Comment', { attribute_datatype_len: 20, rules: [{ rule: 'max', value: 20 }] })],
        },
        {
          name: 'criteria',
          api: 'contract_criteria_rel',
          label: 'Criteria',
          kind: 'many_to_many',
          target: 'criteria',
          link: 'contract_criteria',
          own_key: 'contract_id',
          target_key: 'criteria_id',
          attributes: [textAttr('comment', 'Comment')],
        },
      ],
    });
    const costtype = fakeDefinition('costtype');
    const criteria = fakeDefinition('criteria');
    const linkTables = fakeTables({
      contract: { def: contract, rows: [{ contract_id: 1, contract_name: 'Mietvertrag Nord', row_version: 1 }] },
      costtype: { def: costtype, rows: [] },
      criteria: { def: criteria, rows: [] },
      contract_costtype_rel: {
        def: costtype,
        rows: [{ costtype_id: 3, costtype_name: 'Heizung', contract_id: 1, comment: 'pauschal', row_version: 1 }],
      },
      contract_criteria_rel: {
        def: criteria,
        rows: [{ criteria_id: 8, criteria_name: 'Lage', contract_criteria_id: 44, contract_id: 1, comment: null, row_version: 1 }],
      },
    });
    const editor = makeUser([
      { action: 'read', subject: 'contract' },
      { action: 'update', subject: 'contract' },
      { action: 'list', subject: 'costtype' },
      { action: 'list', subject: 'criteria' },
    ]);

    it("changes the link's attributes in a modal through update-link, with the server 422 on its field", async () => {
      const user = userEvent.setup();
      const sent: RecordedCall[] = [];
      const handler = (call: RecordedCall) => {
        const body = call.body as { action?: string; data?: Record<string, unknown> } | undefined;
        if (body?.action === 'update-link') {
          sent.push(call);
          if (body.data?.comment === 'refused')
            return json(422, { detail: [{ loc: ['body', 'comment'], msg: 'Comment is not allowed here', type: 'value_error' }] });
          return json(200, { data: { contract_id: 1, costtype_id: 3, comment: body.data?.comment } });
        }
        return linkTables(call);
      };
      loginAs(editor);
      const { router } = renderApp('/app/table/contract/view/1', editor, handler);
      await user.click(await screen.findByText('Heizung', {}, { timeout: 10_000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Cost types: Heizung' });
      const comment = within(dialog).getByRole('textbox', { name: 'Comment' });
      expect(comment).toHaveValue('pauschal');
      // The link attribute's own rule first.
      await user.clear(comment);
      await user.type(comment, 'far more than twenty characters');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Comment must contain maximum 20 characters')).toBeInTheDocument();
      expect(sent).toHaveLength(0);
      await user.clear(comment);
      await user.type(comment, 'refused');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText('Comment is not allowed here')).toBeInTheDocument();
      await user.clear(comment);
      await user.type(comment, 'nach Verbrauch');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /Cost types/ })).toBeNull());
      expect(sent.at(-1)?.url).toBe('/api/?contract_costtype_rel');
      expect(sent.at(-1)?.body).toEqual({
        action: 'update-link',
        entity: 'contract_costtype_rel',
        id: 1,
        data: { costtype_id: 3, comment: 'nach Verbrauch' },
      });
      expect(router.state.location.pathname).toBe('/app/table/contract/view/1');
    });

    it('names a link with a key of its own by that key when its attributes change', async () => {
      const user = userEvent.setup();
      const sent: RecordedCall[] = [];
      const handler = (call: RecordedCall) => {
        const body = call.body as { action?: string; data?: Record<string, unknown> } | undefined;
        if (body?.action === 'update-link') {
          sent.push(call);
          return json(200, { data: { contract_criteria_id: 44, contract_id: 1, criteria_id: 8, comment: body.data?.comment } });
        }
        return linkTables(call);
      };
      loginAs(editor);
      const { router } = renderApp('/app/table/contract/view/1', editor, handler);
      await user.click(await screen.findByRole('tab', { name: 'Criteria' }, { timeout: 10_000 }));
      await user.click(await screen.findByText('Lage', {}, { timeout: 10_000 }));
      const dialog = await screen.findByRole('dialog', { name: 'Criteria: Lage' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'zentral');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: /Criteria/ })).toBeNull());
      expect(sent.at(-1)?.body).toEqual({
        action: 'update-link',
        entity: 'contract_criteria_rel',
        id: 1,
        data: { contract_criteria_id: 44, comment: 'zentral' },
      });
      expect(router.state.location.pathname).toBe('/app/table/contract/view/1');
    });
  });

  it("reads a history entry's changes: fields, links, and a link's changed attributes", () => {
    const def = fakeDefinition('contract', {
      relations: [
        {
          name: 'costtype',
          api: 'contract_costtype_rel',
          label: 'Cost types',
          kind: 'many_to_many',
          target: 'costtype',
          attributes: [textAttr('comment', 'Comment')],
        },
      ],
    });
    expect(
      changeLines(
        {
          contract_name: ['Alt', 'Neu'],
          costtype: [
            { costtype_id: 4, comment: 'nach Fläche' },
            { costtype_id: 4, comment: 'nach Verbrauch' },
          ],
        },
        def,
      ),
    ).toEqual([
      { key: 'contract_name', label: 'Name', from: 'Alt', to: 'Neu' },
      { key: 'costtype.comment', label: 'Cost types · Comment', from: 'nach Fläche', to: 'nach Verbrauch' },
    ]);
    expect(changeLines({ costtype: [null, 4] }, def)).toEqual([{ key: 'costtype', label: 'Cost types', from: null, to: 4 }]);
  });
});

describe('the history tab', () => {
  it('names the action, the referenced rows and the text of rich text, not keys, ids or markup', async () => {
    const user = makeUser([
      { action: 'read', subject: 'customergroup' },
      { action: 'list', subject: 'pos' },
    ]);
    loginAs(user);
    const withPos = fakeTables({
      customergroup: { def: company, rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH', row_version: 1 }] },
      pos: { def: fakeDefinition('pos', { label: ['pos_name'] }), rows: [] },
      company_pos_rel: { def: fakeDefinition('pos', { label: ['pos_name'] }), rows: [{ pos_id: 12, pos_name: 'Filiale Innenstadt' }] },
      taxrate: { def: fakeDefinition('taxrate'), rows: [] },
    });
    const rows = [
      { trackrecord_timestamp: '2026-11-20T10:00:00Z', trackrecord_type: 'link', user_id__label: 'Anna Admin', trackrecord_changes: JSON.stringify({ pos: [null, 12] }) },
      {
        trackrecord_timestamp: '2026-11-19T10:00:00Z',
        trackrecord_type: 'update',
        user_id__label: 'Anna Admin',
        trackrecord_changes: JSON.stringify({ company_name: ['<p>Nordhandel</p>', '<p>Nordhandel <b>Retail</b> GmbH</p>'] }),
      },
    ];
    renderApp('/app/table/customergroup/view/1?tab=history', user, (call) => {
      const body = call.body as { action?: string } | undefined;
      if (call.url.startsWith('/api/?') && body?.action === 'history') {
        return json(200, { data: { data: rows, current_page: 1, per_page: 100, from: 1, to: 2, has_more: false } });
      }
      return withPos(call);
    });
    const table = await screen.findByRole('table', { name: 'History' }, { timeout: 10_000 });
    expect(await within(table).findByText('→ Filiale Innenstadt', undefined, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(table).getByText('Linked')).toBeInTheDocument();
    expect(within(table).getByText('Changed')).toBeInTheDocument();
    expect(table).toHaveTextContent('Name: Nordhandel → Nordhandel Retail GmbH');
    for (const technical of ['link', 'update', '<p>', '→ 12']) expect(table.textContent).not.toContain(technical);
  });

  describe('a documents tab', () => {
    withLayout();

    it('says which documents have no type yet', async () => {
      const doc = fakeDefinition('document', {
        label: ['document_name'],
        attributes: [
          textAttr('document_id', 'Id', { type: 'id', read_only: true, hidden_on_create: true, attribute_datatype_hint: 'number' }),
          textAttr('document_name', 'Name', { required: true }),
          textAttr('documenttype_id', 'Document type', {
            type: 'id',
            attribute_datatype_hint: 'list',
            ref: { table: 'documenttype', key: 'documenttype_id', label: ['documenttype_name'] },
          }),
        ],
      });
      const owner = fakeDefinition('company', {
        table: 'customergroup',
        subject: 'customergroup',
        access_subject: 'customergroup',
        relations: [{ name: 'document', api: 'company_document_rel', label: 'Documents', kind: 'many_to_many', target: 'document', link: 'company_document' }],
      });
      const docs = [
        { document_id: 4, document_name: 'Mietvertrag', documenttype_id: 2, documenttype_id__label: 'Vertrag' },
        { document_id: 5, document_name: 'Scan', documenttype_id: null, documenttype_id__label: null },
      ];
      const user = makeUser([
        { action: 'read', subject: 'customergroup' },
        { action: 'list', subject: 'document' },
      ]);
      loginAs(user);
      renderApp(
        '/app/table/customergroup/view/1',
        user,
        fakeTables({
          customergroup: { def: owner, rows: [{ company_id: 1, company_name: 'Nordhandel Retail GmbH', row_version: 1 }] },
          document: { def: doc, rows: docs },
          company_document_rel: { def: doc, rows: docs },
        }),
      );
      expect(await screen.findByText('Scan', {}, { timeout: 10_000 })).toBeInTheDocument();
      expect(screen.getByText('Vertrag')).toBeInTheDocument();
      expect(screen.getAllByText('No type yet')).toHaveLength(1);
    });
  });
});

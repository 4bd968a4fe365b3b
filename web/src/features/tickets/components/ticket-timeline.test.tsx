import { AbilityProvider } from '@casl/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../../internal/i18n/locales/de.json';
import en from '../../../../../internal/i18n/locales/en.json';
import fr from '../../../../../internal/i18n/locales/fr.json';
import { buildAbility } from '../../../lib/ability';
import { i18n } from '../../../lib/i18n-instance';
import { createQueryClient } from '../../../lib/query-client';
import { fakeDefinition, fakeTables, textAttr } from '../../../test/fake-tables';
import { mockFetch } from '../../../test/fetch-mock';
import type { TimelineEntry } from '../api/ticket-history';
import { TicketTimeline } from './ticket-timeline';

afterEach(() => vi.unstubAllGlobals());

const ref = (attribute: string, label: string, table: string, labelFields: string[]) =>
  textAttr(attribute, label, { attribute_datatype_hint: 'list', type: 'int', ref: { table, key: `${table}_id`, label: labelFields } });

// The ticket's served definition as the server answers it (labels in the
// language asked for; the test keeps them English, the sentences around
// them are what it checks).
const ticket = fakeDefinition('ticket', {
  attributes: [
    textAttr('ticket_description', 'Description', { attribute_datatype_hint: 'textarea' }),
    ref('team_id', 'Team', 'team', ['team_name']),
    ref('user_id', 'Assigned user', 'user', ['user_firstname', 'user_lastname']),
    ref('columnx_id', 'Column', 'columnx', ['columnx_name']),
    textAttr('column_name', 'Column', { derived: { fn: 'ref', args: ['columnx_id'], field: 'columnx_name' } }),
    textAttr('ticket_deadline_status', 'Deadline status', { options: [{ value: 'over_due_red', label: 'Overdue' }] }),
  ],
  relations: [{ name: 'documents', api: 'ticket_document_rel', label: 'Documents', kind: 'many_to_many', target: 'document', target_key: 'document_id' }],
});
const server = fakeTables({
  ticket: { def: ticket, rows: [] },
  team: { def: fakeDefinition('team'), rows: [{ team_id: 3, team_name: 'FM' }] },
  user: { def: fakeDefinition('user', { label: ['user_firstname', 'user_lastname'] }), rows: [{ user_id: 7, user_firstname: 'Anna', user_lastname: 'Admin' }] },
  // Documents are listed only through their owner's relation.
  document: { def: fakeDefinition('document'), rows: [] },
  ticket_document_rel: { def: fakeDefinition('document'), rows: [{ document_id: 5, document_name: 'Mietvertrag.pdf' }] },
  columnx: { def: fakeDefinition('columnx'), rows: [] },
});

const entry = (id: number, type: string, extra: Partial<TimelineEntry>): TimelineEntry => ({
  id,
  timestamp: '2026-11-20T10:00:00Z',
  type,
  status: null,
  comment: null,
  changes: null,
  user: 'Anna Admin',
  ...extra,
});

const SHA = 'a'.repeat(64);
const entries: TimelineEntry[] = [
  entry(1, 'move', { status: 'Quality check', comment: 'Open → Quality check', changes: JSON.stringify({ columnx_id: [1, 2] }) }),
  entry(2, 'update', { changes: JSON.stringify({ columnx_id: [1, 2], ticket_rank: ['a', 'b'], column_name: ['Open', 'Quality check'], ticket_updated: [0, 1] }) }),
  entry(3, 'update', { changes: JSON.stringify({ team_id: [null, 3] }) }),
  entry(4, 'link', { changes: JSON.stringify({ documents: [null, 5] }) }),
  entry(5, 'sign', {
    status: 'signed',
    comment: `Anna Admin signed document 5 (SHA-256 ${SHA}); signed copy 9 (SHA-256 ${SHA})`,
    changes: JSON.stringify({ document_id: [5, 9], document_sha256: [SHA, SHA] }),
  }),
  entry(6, 'update', { changes: JSON.stringify({ ticket_description: ['', '<p>Heizung <b>fällt</b> aus</p><p>seit Montag</p>'] }) }),
  entry(7, 'update', { changes: JSON.stringify({ ticket_deadline_status: ['', 'over_due_red'], user_id: [null, 7] }) }),
  entry(8, 'email', { status: 'received', comment: 'Mail 12 from hausverwaltung@example.com: Heizung' }),
];

const ADMIN = [{ action: 'manage', subject: 'all' }];

async function renderTimeline(lang: string, rules: { action: string; subject: string; inverted?: boolean }[] = ADMIN) {
  for (const [l, texts] of Object.entries({ en, de, fr })) i18n.addResourceBundle(l, 'translation', texts, true, true);
  await i18n.changeLanguage(lang);
  const calls = mockFetch((call) => server(call) ?? new Response(null, { status: 404 }));
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={createQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <AbilityProvider value={buildAbility(rules)}>
            <TicketTimeline ticketId={9} entries={entries} />
          </AbilityProvider>
        </I18nextProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  // The referenced rows' labels arrive after the definitions.
  await screen.findByText(/: Mietvertrag\.pdf$/, undefined, { timeout: 5_000 });
  return calls;
}

describe('the ticket timeline', () => {
  const cases: Record<string, string[]> = {
    en: [
      'Moved to Quality check',
      'Assigned to team FM',
      'Linked document: Mietvertrag.pdf',
      'Signed by Anna Admin',
      'Description: Heizung fällt aus seit Montag',
      'Deadline status: Overdue',
      'Assigned to Anna Admin',
      'Mail received from hausverwaltung@example.com: Heizung',
    ],
    de: [
      'Verschoben nach Quality check',
      'Dem Team FM zugewiesen',
      'Dokument verknüpft: Mietvertrag.pdf',
      'Unterschrieben von Anna Admin',
      // The drawer's label of the field, not the table's.
      'Beschreibung: Heizung fällt aus seit Montag',
      'E-Mail von hausverwaltung@example.com erhalten: Heizung',
    ],
    fr: [
      'Déplacé vers Quality check',
      "Attribué à l'équipe FM",
      'Nouveau lien (document) : Mietvertrag.pdf',
      'Signé par Anna Admin',
      'Deadline status : Overdue',
      'E-mail reçu de hausverwaltung@example.com : Heizung',
    ],
  };
  for (const [lang, sentences] of Object.entries(cases)) {
    it(`says each entry as a sentence in ${lang}, without keys, markup or digests`, async () => {
      await renderTimeline(lang);
      const text = document.body.textContent ?? '';
      for (const sentence of sentences) expect(text).toContain(sentence);
      for (const technical of ['columnx_id', 'team_id', 'ticket_rank', 'ticket_updated', 'SHA-256', SHA, '<p>', '<b>', 'over_due_red', 'link', 'Mail 12']) {
        expect(text).not.toContain(technical);
      }
      // The update that only moved the ticket says nothing its move entry does not.
      expect(within(document.body).getAllByText(/Quality check/)).toHaveLength(1);
    });
  }

  it('asks no labels of a table the reader may not list: its rows show by key', async () => {
    const { calls } = await renderTimeline('en', [
      { action: 'manage', subject: 'all' },
      { action: 'list', subject: 'team', inverted: true },
    ]);
    expect(calls.some((c) => c.url.includes('?team'))).toBe(false);
    expect(document.body.textContent).toContain('Assigned to team #3');
  });
});

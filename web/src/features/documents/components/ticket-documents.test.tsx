import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import { TicketDocuments } from './ticket-documents';

const rows = [
  { document_id: 4, document_name: 'Mietvertrag', document_mime_type: 'application/pdf', documenttype_id: 2 },
  { document_id: 5, document_name: 'Scan', document_mime_type: 'application/pdf', documenttype_id: null },
];

describe('TicketDocuments', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('marks a document without a type and offers to sign only the typed ones', async () => {
    mockFetch((call) => (call.url.includes('ticket_document_rel') ? json(200, { data: { data: rows } }) : json(200, { data: { data: [] } })));
    renderUi(<TicketDocuments ticketId={3} />);
    expect(await screen.findByRole('link', { name: 'Scan' })).toBeTruthy();
    expect(screen.getAllByText('No type yet')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Mietvertrag' }).getAttribute('href')).toContain('/app/preview/document/4/');
    const signLinks = screen.getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('/app/sign-document/'));
    expect(signLinks.map((a) => a.getAttribute('href'))).toEqual(['/app/sign-document/4/ticket/3']);
  });
});

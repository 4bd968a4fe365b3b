import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n-instance';
import { createQueryClient } from '../../../lib/query-client';
import { json, mockFetch } from '../../../test/fetch-mock';
import { loadEnglish } from '../../../test/render-ui';
import DocumentPreviewPage from './document-preview-page';

// pdf.js needs a real browser (workers, canvas): the page's test checks which URL it is given.
vi.mock('./pdf-viewer', () => ({
  PdfViewer: ({ url }: { url: string }) => <div data-testid="pdf-viewer" data-url={url} />,
}));

function renderAt(path: string) {
  loadEnglish();
  const router = createMemoryRouter([{ path: '/preview/document/:document_id/:name', element: <DocumentPreviewPage /> }], {
    initialEntries: [path],
  });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={createQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const links = {
  download: '/document/download/7?authorization=7.1.9.mac',
  download_stamp: '/document/download/stamp/7?authorization=7.1.9.mac',
  preview: '/documents/preview/7?authorization=7.1.9.mac',
  preview_stamp: '/documents/preview/stamp/7?authorization=7.1.9.mac',
  sign_image: '/documents-sign/image/7?authorization=7.1.9.mac',
  documenttype_id: 3,
  expires_at: '2026-11-24T00:05:00Z',
};

describe('DocumentPreviewPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the document through its link and switches to the stamped copy', async () => {
    const { calls } = mockFetch(() => json(200, links));
    renderAt('/preview/document/7/Mietvertrag%20Nord');
    const viewer = await screen.findByTestId('pdf-viewer');
    expect(viewer.getAttribute('data-url')).toBe(links.preview);
    expect(calls[0].url).toContain('/documents/links/7');
    expect(screen.getByRole('heading', { name: 'Mietvertrag Nord' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(links.download);
    await userEvent.click(screen.getByText('Stamped copy'));
    await waitFor(() => expect(screen.getByTestId('pdf-viewer').getAttribute('data-url')).toBe(links.preview_stamp));
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(links.download_stamp);
  });

  it('offers only the original of a document without a type, and says why', async () => {
    mockFetch(() => json(200, { ...links, documenttype_id: null }));
    renderAt('/preview/document/7/Scan');
    const viewer = await screen.findByTestId('pdf-viewer');
    expect(viewer.getAttribute('data-url')).toBe(links.preview);
    expect(screen.getByText('No type yet')).toBeTruthy();
    expect(screen.getByText(/it can be stamped and signed once it has one/)).toBeTruthy();
    expect(screen.queryByText('Stamped copy')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(links.download);
  });

  it('says so when the document cannot be shown', async () => {
    mockFetch(() => json(404, { detail: 'The record does not exist or you may not see it.' }));
    renderAt('/preview/document/999/x');
    expect(await screen.findByText('The document cannot be shown.')).toBeTruthy();
    expect(screen.queryByTestId('pdf-viewer')).toBeNull();
  });
});

import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ChunkLoadError, importWithTimeout } from '../../lib/lazy-import';
import { i18n } from '../../lib/i18n';
import { RouteErrorPage } from './route-error-page';

describe('RouteErrorPage', () => {
  it('shows the loader error with a Reload action when a route chunk fails', async () => {
    i18n.addResourceBundle('en', 'translation', {
      'status.load_error.title': 'This page could not be loaded',
      'general.reload': 'Reload',
    });
    const router = createMemoryRouter(
      [
        {
          path: '/',
          errorElement: <RouteErrorPage />,
          lazy: async () => {
            await importWithTimeout(() => Promise.reject(new Error('network')));
            return {};
          },
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(new ChunkLoadError('x').name).toBe('ChunkLoadError');
  });
});

import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../test/fetch-mock';
import { RootShell } from './root-shell';

describe('RootShell', () => {
  it('shows the progress bar while a route loads and hides it afterwards', async () => {
    const chunk = deferred<void>();
    const router = createMemoryRouter(
      [
        {
          element: <RootShell />,
          children: [
            { path: '/', element: <p>start</p> },
            {
              path: '/slow',
              lazy: async () => {
                await chunk.promise;
                return { Component: () => <p>slow page</p> };
              },
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    await screen.findByText('start');
    expect(screen.queryByTestId('navigation-progress')).toBeNull();
    void router.navigate('/slow');
    expect(await screen.findByTestId('navigation-progress')).toBeInTheDocument();
    chunk.resolve();
    expect(await screen.findByText('slow page')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('navigation-progress')).toBeNull());
  });
});

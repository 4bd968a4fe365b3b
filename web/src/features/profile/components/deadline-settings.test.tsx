import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetch-mock';
import { renderUi } from '../../../test/render-ui';
import { CalendarLinkCard } from './deadline-settings';

afterEach(() => vi.unstubAllGlobals());

describe('CalendarLinkCard', () => {
  it('offers no revoke while the user has no calendar link', async () => {
    mockFetch(() => json(200, { exists: false }));
    renderUi(<CalendarLinkCard />);
    expect(await screen.findByRole('button', { name: 'Create calendar link' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke link' })).toBeNull();
    expect(screen.queryByTestId('calendar-exists')).toBeNull();
  }, 30_000);

  it('reports an existing link, which cannot be shown again, and offers to revoke or replace it', async () => {
    mockFetch(() => json(200, { exists: true, created_at: '2026-11-02T08:30:00Z' }));
    renderUi(<CalendarLinkCard />);
    expect(await screen.findByRole('button', { name: 'Revoke link' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create a new link' })).toBeInTheDocument();
    expect(screen.getByTestId('calendar-exists')).toHaveTextContent(/since 11\/02\/2026.*cannot be shown again/);
  }, 30_000);
});

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../test/render-ui';
import { ListHeading } from './list-heading';

describe('ListHeading', () => {
  it('shows an exact total as the count alone', async () => {
    renderUi(<ListHeading title="Tickets" total={1000015} />);
    const badge = await screen.findByLabelText('1000015 rows');
    expect(badge.textContent).toBe('1,000,015');
  });

  it('says when a total was counted that is being counted again', async () => {
    const at = '2026-11-29T10:42:13Z';
    renderUi(<ListHeading title="Tickets" total={1000015} totalAsOf={at} />);
    const time = new Date(at).toLocaleTimeString('en');
    const badge = await screen.findByLabelText(`1000015 rows (Total as of ${time}; counting again)`);
    expect(badge.textContent).toContain('1,000,015');
  });
});

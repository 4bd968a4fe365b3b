import { screen, within } from '@testing-library/react';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../test/render-ui';
import { SideMenu } from './layouts/side-menu';
import { COMING_SOON_HANDLE } from './lazy-route';
import { COMING_SOON, isComingSoon, MENU } from './menu';
import { routes } from './routes';

/** Whether `to` leads to a placeholder ("Coming soon") route. */
function leadsToPlaceholder(to: string): boolean {
  const matches = matchRoutes(routes, to.split('?')[0]) ?? [];
  return matches.some((m) => m.route.handle === COMING_SOON_HANDLE);
}

const entries = MENU.flatMap((section) => section.entries);

describe('coming-soon screens in the menu', () => {
  it('marks every entry that leads to a placeholder, and no other', () => {
    const wrong = entries
      .filter((entry) => isComingSoon(entry) !== leadsToPlaceholder(entry.to))
      .map((entry) => `${entry.to}: marked ${isComingSoon(entry)}, placeholder ${leadsToPlaceholder(entry.to)}`);
    expect(wrong).toEqual([]);
  });

  it('lists only paths the menu leads to', () => {
    const targets = new Set(entries.map((entry) => entry.to));
    expect(COMING_SOON.filter((to) => !targets.has(to))).toEqual([]);
  });

  it('knows real screens from placeholders', () => {
    expect(leadsToPlaceholder('/app/table/contract')).toBe(false);
    expect(leadsToPlaceholder('/app/incoming-mails')).toBe(false);
    expect(leadsToPlaceholder('/app/import-contract')).toBe(false);
    expect(leadsToPlaceholder('/comming-soon?screen=error_dashboard')).toBe(true);
  });

  it('marks nothing once every screen of the menu has landed', () => {
    const sections = MENU.filter((s) => s.id === 'tickets' || s.id === 'import');
    renderUi(<SideMenu sections={sections} />);
    const nav = screen.getByRole('navigation');
    // The sections are collapsed: their links are in the page, hidden.
    const link = (name: string) => within(nav).getByRole('link', { name, hidden: true });
    expect(within(link('Contract import')).queryByText('Soon')).toBeNull();
    expect(within(link('Incoming emails')).queryByText('Soon')).toBeNull();
    expect(within(link('Tickets')).queryByText('Soon')).toBeNull();
    const marked = within(nav)
      .getAllByRole('link', { hidden: true })
      .filter((a) => within(a).queryByText('Soon'))
      .map((a) => a.getAttribute('href'));
    expect(marked).toEqual([]);
  });
});

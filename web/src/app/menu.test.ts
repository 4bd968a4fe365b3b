import { describe, expect, it } from 'vitest';
import { buildAbility } from '../lib/ability';
import { MENU, visibleMenu } from './menu';

const ids = (ability: ReturnType<typeof buildAbility>) =>
  visibleMenu(ability).map((section) => `${section.id}:${section.entries.map((e) => e.id).join(',')}`);

describe('visibleMenu', () => {
  it('shows everything to the administrator', () => {
    const all = visibleMenu(buildAbility([{ action: 'manage', subject: 'all' }]));
    expect(all.map((s) => s.id)).toEqual(MENU.map((s) => s.id));
    expect(all.flatMap((s) => s.entries)).toHaveLength(MENU.flatMap((s) => s.entries).length);
  });

  it('shows nothing without rules', () => {
    expect(visibleMenu(buildAbility([]))).toEqual([]);
  });

  it('needs the menu subject and the list right for table entries', () => {
    const onlyMenu = buildAbility([{ action: 'read', subject: 'menu_company' }]);
    expect(ids(onlyMenu)).toEqual([]);
    const menuAndTable = buildAbility([
      { action: 'read', subject: 'menu_company' },
      { action: 'list', subject: 'pos' },
      { action: 'list', subject: 'contract' },
    ]);
    expect(ids(menuAndTable)).toEqual(['company:pos']);
  });

  it('needs create on menu_new_business for the new-business entry', () => {
    expect(ids(buildAbility([{ action: 'read', subject: 'menu_new_business' }]))).toEqual([]);
    expect(ids(buildAbility([{ action: 'create', subject: 'menu_new_business' }]))).toEqual(['tickets:new_business']);
  });

  it('hides administration from a user without its menu', () => {
    const external = buildAbility([
      { action: 'read', subject: 'menu_dashboard' },
      { action: 'read', subject: 'menu_facility' },
      { action: 'list', subject: 'ticket' },
      { action: 'list', subject: 'user' },
    ]);
    const sections = visibleMenu(external).map((s) => s.id);
    expect(sections).toContain('facility');
    expect(sections).not.toContain('administration');
  });
});

import { describe, expect, it } from 'vitest';
import { buildAbility } from '../lib/ability';
import { MASTER_DATA_ENTRIES, MASTER_DATA_TABLES, MENU, searchableScreens, visibleMasterData, visibleMenu } from './menu';

const ids = (ability: ReturnType<typeof buildAbility>) =>
  visibleMenu(ability).map((section) => `${section.id}:${section.entries.map((e) => e.id).join(',')}`);

describe('visibleMenu', () => {
  it('shows every screen to the administrator, each once', () => {
    const all = visibleMenu(buildAbility([{ action: 'manage', subject: 'all' }]));
    const targets = all.flatMap((s) => s.entries.map((e) => e.to));
    expect(new Set(targets).size).toBe(targets.length);
    expect(new Set(targets)).toEqual(new Set(MENU.flatMap((s) => s.entries.map((e) => e.to))));
    // "Facility" only repeated the tickets and service objects: it goes.
    expect(all.map((s) => s.id)).not.toContain('facility');
  });

  it('defines no two entries to one screen, nor one to an address that moved (aliases aside)', () => {
    // Addresses that lead to another screen's rows (routes.tsx MovedTo).
    const moved: Record<string, string> = { '/app/table/recurringpayment': '/app/payments-list' };
    const screens = [...MENU.flatMap((s) => s.entries), ...MASTER_DATA_ENTRIES]
      .filter((e) => !e.alias)
      .map((e) => moved[e.to] ?? e.to);
    const twice = screens.filter((to, i) => screens.indexOf(to) !== i);
    expect(twice).toEqual([]);
    const all = MENU.flatMap((s) => s.entries).map((e) => e.to);
    expect(all.filter((to) => to in moved)).toEqual([]);
  });

  it('lists recurring payments once: the payments list, not also the generic table', () => {
    const contract = MENU.find((s) => s.id === 'contract');
    const recurring = contract?.entries.filter((e) => e.to === '/app/payments-list' || e.to === '/app/table/recurringpayment');
    expect(recurring?.map((e) => e.to)).toEqual(['/app/payments-list']);
  });

  it('keeps the facility entries for a user who has no other way to them', () => {
    const fm = buildAbility([
      { action: 'read', subject: 'menu_facility' },
      { action: 'list', subject: 'ticket' },
      { action: 'list', subject: 'serviceobject' },
    ]);
    expect(ids(fm)).toEqual(['facility:facility_tickets,facility_service_objects']);
  });

  it('shows master data as one entry leading to the master-data page, which lists what the user may list', () => {
    const admin = buildAbility([{ action: 'manage', subject: 'all' }]);
    const section = visibleMenu(admin).find((s) => s.id === 'master_data');
    expect(section?.entries.map((e) => e.to)).toEqual(['/app/master-data']);
    expect(visibleMasterData(admin)).toHaveLength(MASTER_DATA_TABLES.length);

    const some = buildAbility([
      { action: 'read', subject: 'menu_master_data' },
      { action: 'list', subject: 'currency' },
    ]);
    expect(ids(some)).toEqual(['master_data:master_data']);
    expect(visibleMasterData(some).map((e) => e.id)).toEqual(['currency']);
    // Without a single lookup table to list, there is no entry.
    expect(ids(buildAbility([{ action: 'read', subject: 'menu_master_data' }]))).toEqual([]);
  });

  it('lets the menu search find every screen, master data included, once', () => {
    const screens = searchableScreens(buildAbility([{ action: 'manage', subject: 'all' }]));
    const targets = screens.map((s) => s.entry.to);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets).toContain('/app/table/currency');
    expect(targets).toContain('/app/table/invoice');
    expect(screens.find((s) => s.entry.to === '/app/table/currency')?.sectionKey).toBe('menu.master_data');
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

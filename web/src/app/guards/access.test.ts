import { describe, expect, it } from 'vitest';
import { buildAbility } from '../../lib/ability';
import { decideAccess, tableRoutePermission } from './access';

const ability = buildAbility([
  { action: 'list', subject: 'ticket' },
  { action: 'read', subject: 'ticket' },
]);

describe('decideAccess', () => {
  it('sends visitors without a session to the login', () => {
    expect(decideAccess(false, ability, [])).toBe('login');
    expect(decideAccess(false, ability, [{ action: 'list', subject: 'ticket' }])).toBe('login');
  });
  it('sends logged-in users without the right to not-authorized', () => {
    expect(decideAccess(true, ability, [{ action: 'create', subject: 'ticket' }])).toBe('not-authorized');
  });
  it('allows with every right', () => {
    expect(decideAccess(true, ability, [{ action: 'list', subject: 'ticket' }])).toBe('allow');
    expect(decideAccess(true, buildAbility([{ action: 'manage', subject: 'all' }]), [{ action: 'remove', subject: 'x' }])).toBe(
      'allow',
    );
  });
  it('honours inverted rules', () => {
    const limited = buildAbility([
      { action: 'manage', subject: 'all' },
      { action: 'read', subject: 'menu_administration', inverted: true },
    ]);
    expect(decideAccess(true, limited, [{ action: 'read', subject: 'menu_administration' }])).toBe('not-authorized');
  });
});

describe('tableRoutePermission', () => {
  const none = new URLSearchParams();
  it('needs list for the list, create for the form', () => {
    expect(tableRoutePermission('list', 'pos', none)).toEqual({ action: 'list', subject: 'pos' });
    expect(tableRoutePermission('create', 'pos', none)).toEqual({ action: 'create', subject: 'pos' });
  });
  it('needs read for a view and update in edit mode', () => {
    expect(tableRoutePermission('view', 'pos', none)).toEqual({ action: 'read', subject: 'pos' });
    expect(tableRoutePermission('view', 'pos', new URLSearchParams('edit=true'))).toEqual({ action: 'update', subject: 'pos' });
    expect(tableRoutePermission('view', 'pos', new URLSearchParams('edit=false'))).toEqual({ action: 'read', subject: 'pos' });
  });
});

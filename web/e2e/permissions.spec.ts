import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_PASSWORD, logIn, mainMenu, openAs } from './helpers';

/**
 * Rights and tenant scope as a person meets them: an external lead sees only
 * their own customer group, and an administrator's change of a role's table
 * group flags shows in the user's menu after the next refresh.
 */

/** Logs in through POST /token and answers the access token (fresh each time: the e2e server's tokens live 8 s). */
async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.post('/token', {
    data: { username: email, password: DEMO_PASSWORD, user_browser_hash: 'e2e-permissions-spec' },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).access_token as string;
}

/** One call of the generic API (POST /api/?<entity>) as the given user; answers the parsed JSON. */
async function api(request: APIRequestContext, token: string, body: Record<string, unknown> & { entity: string }) {
  const answer = await request.post(`/api/?${body.entity}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return answer.json();
}

/** The first row of a read-rich list with the filter, as the administrator. */
async function firstRow(request: APIRequestContext, entity: string, filter: unknown[]) {
  const token = await apiToken(request, 'admin@demo.test');
  const answer = await api(request, token, { action: 'read-rich', entity, filter, per_page: 1 });
  const rows = answer.data.data as Record<string, unknown>[];
  expect(rows.length, `a ${entity} row for ${JSON.stringify(filter)}`).toBe(1);
  return rows[0];
}

/** The crud row of a role (by code) and a table group (by name). */
async function crudRow(request: APIRequestContext, roleCode: string, tablegroupName: string) {
  const role = await firstRow(request, 'role', [{ field: 'role_code', op: 'eq', value: roleCode }]);
  const group = await firstRow(request, 'tablegroup', [{ field: 'tablegroup_name', op: 'eq', value: tablegroupName }]);
  return firstRow(request, 'crud', [
    { field: 'role_id', op: 'eq', value: role.role_id },
    { field: 'tablegroup_id', op: 'eq', value: group.tablegroup_id },
  ]);
}

/** Sets the read flag of a crud row (read fresh, so its row_version is current) as the administrator. */
async function setCrudRead(request: APIRequestContext, roleCode: string, tablegroupName: string, value: 0 | 1) {
  const row = await crudRow(request, roleCode, tablegroupName);
  if (row.crud_r === value) return;
  const token = await apiToken(request, 'admin@demo.test');
  const answer = await api(request, token, {
    action: 'update',
    entity: 'crud',
    id: row.crud_id,
    data: { crud_r: value },
    row_version: row.row_version,
  });
  expect(answer.data.crud_r).toBe(value);
}

const posNames = (page: Page) => page.getByRole('grid', { name: 'Points of sale' }).locator('td[data-column="pos_name"]');

test('an external lead sees only the points of sale of their own customer group', async ({ page, request, expected }) => {
  // A record of another customer group answers 404, like a missing one.
  expected.response(404, /\/api\/\?pos$/);
  const foreign = await firstRow(request, 'pos', [{ field: 'pos_name', op: 'starts_with', value: 'Südmarkt' }]);
  const foreignName = String(foreign.pos_name);

  // Their group's count as the server gives it to them (other specs add points of sale to the group).
  const leadToken = await apiToken(request, 'lead@demo.test');
  const own = await api(request, leadToken, { action: 'read-rich', entity: 'pos', per_page: 1, count: true });
  const total = Number(own.data.total ?? own.data.pagination?.total);
  expect(total).toBeGreaterThan(0);
  await openAs(page, 'lead@demo.test', '/app/table/pos');
  await expect(page.getByRole('heading', { name: 'Points of sale' })).toBeVisible();
  await expect(page.getByLabel(`${total} rows`, { exact: true })).toBeVisible();
  await expect(posNames(page).first()).toBeVisible();
  const names = await posNames(page).allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(name).toMatch(/^Nordhandel /);
  await expect(page.getByRole('grid', { name: 'Points of sale' }).getByText('Südmarkt')).toHaveCount(0);

  // Searching for the other group finds nothing.
  await page.getByRole('textbox', { name: 'Search' }).fill('Südmarkt');
  await expect(page).toHaveURL(/q=S%C3%BCdmarkt/);
  await expect(page.getByTestId('empty-state')).toContainText('No rows match the filter');
  await expect(posNames(page)).toHaveCount(0);

  // A record of the other group answers like a missing one (404): an error, not the record.
  // A record of another customer group answers exactly like a missing one.
  await page.goto(`/app/table/pos/view/${foreign.pos_id}`);
  const error = page.getByRole('alert').filter({ has: page.getByRole('link', { name: 'Go to the dashboard' }) });
  await expect(error).toBeVisible();
  await expect(error).toContainText('This record does not exist, or you may not see it.');
  await expect(page.getByText(foreignName)).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Locations' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);

  // The administration is not theirs.
  await page.goto('/app/table/user');
  await expect(page).toHaveURL(/\/not-authorized$/);
  await expect(page.getByRole('heading', { name: 'Access not allowed' })).toBeVisible();
});

test.describe('rights changed by an administrator', () => {
  // "Portfolio details" holds the locations, which the team member may read
  // only through the group's flags (no table access row grants them).
  const GROUP = 'Portfolio details';

  test.afterEach(async ({ request }) => {
    await setCrudRead(request, 'team_member', GROUP, 1);
  });

  test("an administrator takes a right away and the user's menu changes after the next refresh", async ({ page, request }) => {
    expect((await crudRow(request, 'team_member', GROUP)).crud_r).toBe(1);

    await logIn(page, 'team_member@demo.test');
    const menu = mainMenu(page);
    await menu.getByText('Customers & sites', { exact: true }).click();
    await expect(menu.getByRole('link', { name: 'Locations', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Points of sale', exact: true })).toBeVisible();

    await setCrudRead(request, 'team_member', GROUP, 0);

    // The page already shown keeps its menu until the next refresh ...
    await expect(menu.getByRole('link', { name: 'Locations', exact: true })).toBeVisible();

    // ... which reads the rights again.
    await page.reload();
    await menu.getByText('Customers & sites', { exact: true }).click();
    await expect(menu.getByRole('link', { name: 'Points of sale', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Locations', exact: true })).toHaveCount(0);

    await page.goto('/app/table/location');
    await expect(page).toHaveURL(/\/not-authorized$/);
    await expect(page.getByRole('heading', { name: 'Access not allowed' })).toBeVisible();
  });
});

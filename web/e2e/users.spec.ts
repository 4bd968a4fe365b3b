import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { type Expected, expect, test } from './fixtures';
import { logIn, mailTo, openAs, snap } from './helpers';

/**
 * Users administration as people meet it: an administrator creates an
 * external client user with a generated password; the user gets the
 * verification mail from the real test SMTP server, confirms the account,
 * logs in and sees only their customer group's points of sale; the
 * administrator locks the user and the user's open session ends.
 */

const posNames = (page: Page) => page.getByRole('grid', { name: 'Points of sale' }).locator('td[data-column="pos_name"]');

/** The visible input of a form field (Mantine also labels hidden inputs and option lists). */
function field(page: Page, name: string) {
  const control = ':is(input, textarea):not([type="hidden"])';
  return page.locator(`${control}[data-field="${name}"], [data-field="${name}"] ${control}`).first();
}

/** Opens a select by its field name and picks the option. */
async function pick(page: Page, name: string, option: string | RegExp) {
  await field(page, name).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** A fresh browser window for the new user (own storage, so two sessions run side by side). */
async function newWindow(browser: Browser, expected: Expected): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  expected.watch(context);
  return context.newPage();
}

/** Login through the API: the status and code the server answers. */
async function tokenStatus(request: APIRequestContext, email: string, password: string) {
  const answer = await request.post('/token', { data: { username: email, password, user_browser_hash: 'e2e-users-spec' } });
  const body = (await answer.json().catch(() => ({}))) as { code?: string };
  return { status: answer.status(), code: body.code };
}

test('an administrator creates an external client user who verifies, logs in, sees only their group and is locked out', async ({
  page,
  browser,
  request,
  context,
  expected,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = `client.${Date.now()}@demo.test`;

  // The administrator creates the user in the modal over the user list.
  await openAs(page, 'admin@demo.test', '/app/table/user');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'New user' }).click();
  const modal = page.getByRole('dialog', { name: 'New user' });
  await expect(modal).toBeVisible();

  await pick(page, 'usertype_id', 'EXTERN');
  // External users: director flag and organisation type appear, functions do not.
  await expect(modal.getByRole('checkbox', { name: 'Director' })).toBeVisible();
  await expect(field(page, 'user_functions')).toHaveCount(0);
  await field(page, 'user_firstname').fill('Clara');
  await field(page, 'user_lastname').fill('Kunde');
  await expect(modal.locator('[data-field="user_abbreviation"]')).toHaveText('CK');
  await field(page, 'user_email').fill(email);
  await modal.getByRole('button', { name: 'Generate a password and copy it' }).click();
  await expect(page.getByText('Password copied')).toBeVisible();
  const password = await modal.getByLabel('Password', { exact: true }).inputValue();
  expect(password.length).toBeGreaterThanOrEqual(10);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);

  await pick(page, 'firmengroup_type', 'Company');
  await pick(page, 'customergroup_id', 'Nordhandel Gruppe');
  await field(page, 'company_id').click();
  await page.getByRole('option', { name: /^Nordhandel/ }).first().click();
  // Roles of external users only.
  await field(page, 'role_id').click();
  await expect(page.getByRole('option', { name: 'Lead', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Administratoren' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Lead', exact: true }).click();
  await snap(page, 'users-create-modal');
  await modal.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('User Created')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/table\/user\/view\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Clara Kunde' })).toBeVisible();
  const userUrl = page.url();

  // Not verified yet: the server refuses the login.
  expect(await tokenStatus(request, email, password)).toEqual({ status: 403, code: 'not_verified' });

  // The verification mail arrives at the test SMTP server.
  const mailUrl = process.env.PORTFOLIO_E2E_MAIL_URL;
  test.skip(!mailUrl, 'no test SMTP server (PORTFOLIO_E2E_MAIL_URL) for an external server');
  let link = '';
  await expect
    .poll(
      async () => {
        const mails = await mailTo(request, mailUrl!, email);
        const match = mails.map((m) => /https?:\/\/\S+\/auth\/verification\/[\w-]+/.exec(m.text)?.[0]).find(Boolean);
        link = match ?? '';
        return link;
      },
      { timeout: 15_000, message: 'the verification mail' },
    )
    .not.toBe('');
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);

  // The user confirms the account, logs in and sees only their customer group.
  const userPage = await newWindow(browser, expected);
  await userPage.goto(new URL(link).pathname);
  await expect(userPage.getByRole('heading', { name: 'Confirm your account' })).toBeVisible();
  await userPage.getByRole('button', { name: 'Confirm account' }).click();
  await expect(userPage).toHaveURL(/\/login$/);
  await logIn(userPage, email, password);
  await userPage.goto('/app/table/pos');
  await expect(userPage.getByRole('heading', { name: 'Points of sale' })).toBeVisible();
  await expect(posNames(userPage).first()).toBeVisible();
  const names = await posNames(userPage).allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(name).toMatch(/^Nordhandel /);
  await expect(userPage.getByRole('grid', { name: 'Points of sale' }).getByText('Südmarkt')).toHaveCount(0);

  // The administrator locks the user, after a confirmation.
  await page.goto(userUrl);
  await page.getByRole('button', { name: 'Administration' }).click();
  await page.getByRole('menuitem', { name: 'Lock user' }).click();
  const confirm = page.getByRole('dialog', { name: 'Lock user' });
  await expect(confirm).toContainText('Clara Kunde');
  await confirm.getByRole('button', { name: 'Lock user' }).click();
  await expect(page.getByText('The user is locked and signed out.')).toBeVisible();
  await expect(page.getByText('Locked', { exact: true }).first()).toBeVisible();
  await snap(page, 'users-locked-user');

  // The user's open session ends: the next request sends them to the login.
  expected.response(401, /\/(user\/|auth\/refresh\/token|api\/.*)$/);
  await userPage.reload();
  await expect(userPage).toHaveURL(/\/login/);
  expect((await tokenStatus(request, email, password)).status).toBe(403);
  await userPage.context().close();
});

test('the user list searches from 2 characters and the team screens show their rules', async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, 'admin@demo.test', '/app/table/user');
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(grid).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('Leitner');
  await expect(grid.getByText('team_lead@demo.test')).toBeVisible();
  await expect(grid.getByText('admin@demo.test')).toHaveCount(0);

  // An internal user's page: functions shown, director flag and organisation type not.
  await grid.getByText('team_lead@demo.test').click();
  await expect(page.getByRole('heading', { name: 'Tom Leitner' })).toBeVisible();
  await expect(field(page, 'user_functions')).toBeVisible();
  await expect(field(page, 'firmengroup_type')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Director' })).toHaveCount(0);
  await expect(field(page, 'user_password')).toHaveCount(0);
  await expect(field(page, 'team_id')).toBeVisible();
  await snap(page, 'users-internal-view');

  // Editing saves through PUT /users/{id}; the teams stay.
  await page.getByRole('button', { name: 'Edit' }).click();
  await field(page, 'user_mobile').fill('+49 170 1234567');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User Updated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(field(page, 'user_mobile')).toHaveValue('+49 170 1234567');
  await expect(page.getByRole('region', { name: 'Access' }).getByText('MVM', { exact: true })).toBeVisible();

  // A partner user: partner group and partner companies (named, not numbered), no company.
  await page.goto('/app/table/user');
  await page.getByRole('grid', { name: 'Users' }).getByText('partner@demo.test').click();
  await expect(page.getByRole('heading', { name: 'Paula Partner' })).toBeVisible();
  const organisation = page.getByRole('region', { name: 'Organisation' });
  await expect(field(page, 'firmengroup_type')).toHaveValue('Partner company');
  await expect(field(page, 'partnergroup_id')).toHaveValue('Rheinland Immobilien Gruppe');
  await expect(organisation.getByText('Rheinland Immobilien GmbH')).toBeVisible();
  await expect(field(page, 'company_id')).toHaveCount(0);
  await snap(page, 'users-partner-view');

  // Teams: 30 per page, the form's rules, the members with their validity.
  await page.goto('/app/table/team');
  const teams = page.getByRole('grid', { name: 'Teams' });
  await expect(teams.locator('td[data-column="team_name"]').getByText('MVM', { exact: true })).toBeVisible();
  await snap(page, 'teams-list');
  await page.getByRole('button', { name: 'New team' }).click();
  await expect(page.getByRole('heading', { name: 'New team' })).toBeVisible();
  await expect(field(page, 'parent_id')).toHaveCount(0);
  await pick(page, 'team_type', 'External client');
  await expect(field(page, 'parent_id')).toBeVisible();
  // For all customers by default: the customer groups are not asked for.
  await expect(field(page, 'customergroup_id')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'For all customers' }).click();
  await expect(field(page, 'customergroup_id')).toBeVisible();
  await field(page, 'team_name').fill(`E2E client team ${Date.now()}`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Customer group is required')).toBeVisible();
  await pick(page, 'customergroup_id', 'Nordhandel Gruppe');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Team created')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/table\/team\/view\/\d+$/);
  await page.getByRole('button', { name: 'Edit' }).click();
  // Not editable on update.
  await expect(page.getByRole('checkbox', { name: 'For all customers' })).toBeDisabled();
  await field(page, 'team_description').fill('Made by the browser test');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Team updated')).toBeVisible();
  await expect(field(page, 'team_description')).toHaveValue('Made by the browser test');

  // A member with a validity; the end may not be before the start.
  await page.getByRole('button', { name: 'Add member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add member' });
  await field(page, 'user_id').click();
  await page.getByRole('option', { name: /Sara Filiale/ }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Team membership saved')).toBeVisible();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByText('Sara Filiale')).toBeVisible();
  await snap(page, 'teams-view');

  await members.getByRole('button', { name: 'Remove from team' }).click();
  await page.getByRole('dialog', { name: 'Remove from team' }).getByRole('button', { name: 'Remove from team' }).click();
  await expect(page.getByText('The user was removed from the team')).toBeVisible();
  await expect(page.getByText('This team has no members yet')).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/app\/table\/team$/);
});

test('the user and team screens in the dark skin', async ({ page }) => {
  test.setTimeout(90_000);
  await openAs(page, 'admin@demo.test', '/app/table/user');
  await page.getByRole('button', { name: 'Switch to dark skin' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('grid', { name: 'Users' })).toBeVisible();
  await snap(page, 'users-list-dark');
  await page.getByRole('grid', { name: 'Users' }).getByText('store_manager@demo.test').click();
  await expect(page.getByRole('heading', { name: 'Sara Filiale' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(field(page, 'user_firstname')).toBeEditable();
  await snap(page, 'users-edit-dark');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Administration' }).click();
  await snap(page, 'users-actions-dark');
  await page.keyboard.press('Escape');
  await page.goto('/app/table/user/create');
  await expect(page.getByRole('dialog', { name: 'New user' })).toBeVisible();
  await pick(page, 'usertype_id', 'INTERN');
  await snap(page, 'users-create-internal-dark');
  await page.goto('/app/table/team/view/6');
  await expect(page.getByRole('heading', { name: 'MVM extern' })).toBeVisible();
  await snap(page, 'teams-view-dark');
  await page.getByRole('button', { name: 'Switch to light skin' }).click();

  // The same screens speak German.
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The language is saved and, with the tests' 8-second access tokens, a
  // token may be refreshing: a reload in the middle of a refresh loses its
  // answer (decision 0003), so the page settles first.
  await page.waitForLoadState('networkidle');
  await page.goto('/app/table/user');
  await expect(page.getByRole('button', { name: 'Neuer Benutzer' })).toBeVisible();
  await page.getByRole('grid', { name: 'Benutzer' }).getByText('store_manager@demo.test').click();
  await expect(page.getByRole('region', { name: 'Organisation' })).toBeVisible();
  await page.getByRole('button', { name: 'Verwaltung' }).click();
  await expect(page.getByRole('menuitem', { name: 'Benutzer sperren' })).toBeVisible();
  await snap(page, 'users-view-de');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Sprache' }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'Administration' })).toBeVisible();
});

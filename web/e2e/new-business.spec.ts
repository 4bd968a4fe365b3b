import { expect, test } from './fixtures';
import { logIn, mainMenu, openAs, snap } from './helpers';

test.describe('new business', () => {
  test('an administrator turns a new-business ticket into a customer in one guided form', async ({ page, expected }) => {
    // The server refuses the contact person's address first (shown on its step).
    expected.response(422, /\/tickets\/\d+\/customer$/);
    await logIn(page, 'admin@demo.test');
    // The menu entry (Tickets → New business) leads here; the menu itself is tested in menu.spec.
    await expect(mainMenu(page).getByRole('link', { name: 'New business', includeHidden: true })).toHaveAttribute('href', '/app/ticket/new/customer');
    await page.goto('/app/ticket/new/customer');
    const picker = page.getByRole('combobox', { name: 'Ticket' });
    await picker.fill('Outlet am Stadtrand');
    await page.getByRole('option', { name: /Outlet am Stadtrand/ }).first().click();
    await expect(page).toHaveURL(/\/app\/ticket\/\d+\/customer$/);
    await expect(page.getByText('From ticket')).toBeVisible();

    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await page.getByRole('textbox', { name: /^Customer group/ }).fill('Westwind Handel');
    await next.click();
    await page.getByRole('textbox', { name: /^Company name/ }).fill('Westwind Handel GmbH');
    await page.getByRole('textbox', { name: /^Short name/ }).fill('WWH');
    await page.getByRole('textbox', { name: /^Street/ }).fill('Königsallee');
    await page.getByRole('textbox', { name: /^House number/ }).fill('1');
    await page.getByRole('textbox', { name: /^Postal code/ }).fill('40212');
    await page.getByRole('textbox', { name: /^City/ }).fill('Düsseldorf');
    await expect(page.getByRole('textbox', { name: /^State/ })).toHaveValue('Nordrhein-Westfalen');
    await next.click();
    await page.getByRole('combobox', { name: /^Salutation/ }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('textbox', { name: /^First name/ }).fill('Jana');
    await page.getByRole('textbox', { name: /^Last name/ }).fill('Wolf');
    await page.getByRole('textbox', { name: /^E-mail/ }).fill('not-an-address');
    await next.click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Westwind Düsseldorf');
    await page.getByRole('textbox', { name: /^Branch number/ }).fill('WW-001');
    await page.getByLabel(/^Opening date/).fill('2027-03-01');
    await next.click();
    await expect(page.getByRole('table', { name: 'Summary' })).toContainText('Westwind Handel GmbH (WWH)');
    await snap(page, 'new-business-summary');

    // The server refuses the e-mail address: the form goes back to the contact step and says why; nothing was created.
    await page.getByRole('button', { name: 'Create customer' }).click();
    await expect(page.getByRole('textbox', { name: /^E-mail/ })).toBeVisible();
    await expect(page.getByText(/valid email address/i).first()).toBeVisible();
    await page.getByRole('textbox', { name: /^E-mail/ }).fill('jana.wolf@example.com');
    for (let i = 0; i < 2; i++) await next.click();
    await page.getByRole('button', { name: 'Create customer' }).click();

    await expect(page.getByText(/New customer Westwind Handel created/)).toBeVisible();
    await expect(page).toHaveURL(/\/app\/table\/pos\/view\/\d+$/);
    await expect(page.getByText('Westwind Düsseldorf').first()).toBeVisible();
  });

  test('others than administrators do not get the flow', async ({ page }) => {
    await openAs(page, 'team_lead@demo.test', '/app/ticket/new/customer');
    await expect(page).toHaveURL(/not-authorized/);
  });
});

import { expect, test } from './fixtures';
import { DEMO_PASSWORD, logIn, snap } from './helpers';

test('a user edits the profile and changes the password', async ({ page }) => {
  await logIn(page, 'lawyer@demo.test');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'My profile' }).click();
  await expect(page).toHaveURL(/\/app\/user\/profile$/);
  await expect(page.getByRole('heading', { name: 'My profile' })).toBeVisible();
  await expect(page.getByText('lawyer@demo.test').first()).toBeVisible();
  // The user type and roles read as labels, not stored codes (EXTERN).
  await expect(page.getByText('External (client or partner)')).toBeVisible();
  await expect(page.getByText('EXTERN', { exact: true })).toHaveCount(0);

  await page.getByLabel(/^Phone/).fill('+49 40 123456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await snap(page, 'profile-light');

  // A weak password is refused in the browser already.
  await page.getByLabel(/^Current password/).fill(DEMO_PASSWORD);
  await page.getByLabel(/^New password/).fill('weak');
  await page.getByLabel(/^Repeat the new password/).fill('weak');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The password needs at least 10 characters, including a letter and a digit.')).toBeVisible();

  const newPassword = 'Lawyer-Password-42';
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel(/^Repeat the new password/).fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel(/^Current password/)).toHaveValue('');

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, 'lawyer@demo.test', newPassword);
  await expect(page).toHaveURL(/\/app$/);
});

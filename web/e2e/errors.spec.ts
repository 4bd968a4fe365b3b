import { expect, test } from './fixtures';

test('a wrong password shows a clear message', async ({ page, expected }) => {
  expected.response(400, /\/token$/);
  await page.goto('/login');
  await page.getByLabel(/^Email/).fill('admin@demo.test');
  await page.getByLabel(/^Password/).fill('not-the-password-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The email address or the password is wrong.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('repeated wrong passwords make the login wait, and the login counts it down', async ({ page, expected }) => {
  expected.response(400, /\/token$/);
  expected.response(429, /\/token$/);
  await page.goto('/login');
  // An address without an account: it is answered exactly like a real one, so nobody learns which exist.
  await page.getByLabel(/^Email/).fill('no-such-user@demo.test');
  const wait = page.getByRole('alert').filter({ hasText: /Too many failed attempts\. Please wait \d+ seconds/ });
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    await page.getByLabel(/^Password/).fill(`wrong-password-${attempt}`);
    const answered = page.waitForResponse((r) => r.url().endsWith('/token'));
    await page.getByRole('button', { name: 'Log in' }).click();
    expect((await answered).status()).toBe(attempt <= 5 ? 400 : 429);
  }
  await expect(wait).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page).toHaveURL(/\/error-404$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('the authentication pages exist', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.goto('/auth/verification/some-token');
  await expect(page.getByRole('heading', { name: 'Confirm your account' })).toBeVisible();
  await expect(page.getByLabel('Choose your password')).toBeVisible();
  await page.goto('/change-password');
  await expect(page.getByRole('heading', { name: 'Change your password' })).toBeVisible();
});

test('the password-reset link from the email opens the reset page', async ({ page }) => {
  // GET /auth/reset-password/{token} is the app's page; only POST is the API.
  await page.goto('/auth/reset-password/some-token');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible({ timeout: 5_000 });
});

test('the reset page works when reached inside the app', async ({ page, expected }) => {
  // The token is made up: the server refuses it.
  expected.response(400, /\/auth\/reset-password$/);
  await page.goto('/forgot-password');
  await page.evaluate(() => {
    window.history.pushState({}, '', '/auth/reset-password/some-token');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel(/^New password/).fill('short');
  await page.getByLabel(/^Repeat the new password/).fill('short');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByText('The password needs at least 10 characters, including a letter and a digit.')).toBeVisible();
  await page.getByLabel(/^New password/).fill('a-Strong-Password-2024');
  await page.getByLabel(/^Repeat the new password/).fill('a-Strong-Password-2024');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  // The token is not valid: the server's message is shown with a way to ask for a new link.
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
});

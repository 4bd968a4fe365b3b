import { expect, test } from './fixtures';
import { logIn } from './helpers';

// The server runs with an 8 s access-token lifetime (--access-token-ttl 8s).
test('the session survives an expired access token without the user noticing', async ({ page, request }) => {
  await logIn(page, 'admin@demo.test');
  await page.goto('/app/user/profile');
  await expect(page.getByRole('heading', { name: 'My profile' })).toBeVisible();

  const firstToken = await page.evaluate(() => localStorage.getItem('portfolio.access_token'));
  expect(firstToken).toBeTruthy();

  // Wait, by polling the server, until that access token is refused.
  await expect
    .poll(
      async () => (await request.get('/user/', { headers: { Authorization: `Bearer ${firstToken}` } })).status(),
      { timeout: 20_000, intervals: [1_000] },
    )
    .toBe(401);

  const refreshed = page.waitForResponse((r) => r.url().endsWith('/auth/refresh/token') && r.status() === 200);
  // The first PUT is refused (401); the client refreshes and sends it again.
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/user/') && r.request().method() === 'PUT' && r.status() !== 401,
  );
  await page.getByLabel('Mobile phone').fill('+49 170 1234567');
  await page.getByRole('button', { name: 'Save' }).click();
  await refreshed;
  expect((await saved).status()).toBe(200);

  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/user\/profile$/);
  const secondToken = await page.evaluate(() => localStorage.getItem('portfolio.access_token'));
  expect(secondToken).toBeTruthy();
  expect(secondToken).not.toBe(firstToken);

  // And it keeps working after a reload.
  await page.reload();
  await expect(page.getByLabel('Mobile phone')).toHaveValue('+49 170 1234567');
});

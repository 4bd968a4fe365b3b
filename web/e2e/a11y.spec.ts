import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { logIn } from './helpers';

/**
 * The screens a new user meets first, in both skins, checked with axe-core
 * against WCAG 2.2 AA: no serious or critical violation (contrast, names,
 * labels, headings).
 */
for (const skin of ['light', 'dark'] as const) {
  test.describe(`accessibility in the ${skin} skin`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    });

    /** Waits until the page shows what it is about: its level-1 heading, and no loader. */
    async function settled(page: Page, heading: string | RegExp) {
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
      await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
    }

    test('login, dashboard, list, record, edit form and create form', async ({ page }) => {
      // Six axe runs over full pages.
      test.setTimeout(180_000);
      await page.goto('/login');
      await settled(page, 'Sign in to Portfolio');
      await expectAccessible(page, `the login (${skin})`);

      await logIn(page, 'admin@demo.test');
      await expect(page).toHaveURL(/\/app$/);
      await settled(page, /./);
      // The welcome toast is part of what the user sees first.
      await expectAccessible(page, `the dashboard (${skin})`);

      await page.goto('/app/table/pos');
      await settled(page, 'Points of sale');
      await expect(page.getByRole('grid', { name: 'Points of sale' }).locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page, `a list (${skin})`);

      await page.goto('/app/table/pos/view/1');
      await settled(page, /./);
      await expect(page.getByRole('tab', { name: 'Locations' })).toBeVisible();
      await expectAccessible(page, `a record (${skin})`);

      await page.goto('/app/table/pos/view/1?edit=true');
      await settled(page, /./);
      await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
      await expectAccessible(page, `an edit form (${skin})`);

      await page.goto('/app/table/contract/create');
      await settled(page, 'New contract');
      await expectAccessible(page, `a create form (${skin})`);
    });
  });
}

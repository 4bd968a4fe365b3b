import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { DEMO_PASSWORD, logIn, openAs, snap } from './helpers';

/**
 * The live kanban (issue 15): two people watch the facility-management
 * board; what one moves by drag and drop (@dnd-kit) or with the keyboard,
 * reorders within a column, creates, edits or comments arrives at the
 * other's board without a reload; a stale move and a refused one put the
 * card back where the server says it is; the FM user lands on the board and
 * sees only their board and their customer group's tickets.
 */

const BOARD = '/app/table/board/1/kanban';

// Wide enough for the board's five columns side by side.
test.use({ viewport: { width: 1920, height: 1000 } });

function column(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

function card(scope: Page | Locator, id: number): Locator {
  return scope.locator(`[data-ticket-id="${id}"]`);
}

/** Opens the board (logged in as `as`, when given) and waits until its live stream is connected. */
async function openBoard(page: Page, live = true, as?: string): Promise<void> {
  if (as) await openAs(page, as, BOARD);
  else await page.goto(BOARD);
  // The shared test machine may be slow to load the page's chunks.
  await expect(page.getByRole('heading', { level: 1, name: 'Facility Management' })).toBeVisible({ timeout: 30_000 });
  if (live) await expect(page.locator('[data-live="true"]')).toBeVisible({ timeout: 30_000 });
}

/** Drags a card to a column with the mouse, in small steps past the activation distance. */
async function dragTo(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('card or column not on screen');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 4, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + 90, { steps: 12 });
  await expect(to).toHaveAttribute('data-targeted', 'true');
  await page.mouse.up();
}

/** Drags a card onto another card (its upper half), as a reorder within or across columns. */
async function dragOnto(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('card not on screen');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 4, a.y + a.height / 2 - 12, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 4, { steps: 15 });
  await page.mouse.up();
}

/** The ticket numbers of a column's cards, top to bottom. */
function order(page: Page, name: string): Promise<number[]> {
  return column(page, name)
    .locator('[data-ticket-id]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ticket-id'))));
}

/** An access token of the admin, for the changes "someone else" makes. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/token', {
    form: { username: 'admin@demo.test', password: DEMO_PASSWORD, user_browser_hash: 'e2e-kanban' },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

test('a move by drag and drop or keyboard, a new ticket and an edit arrive live at a second watcher', async ({ page, browser, expected }) => {
  // Two browsers on a shared, slow test machine.
  test.setTimeout(300_000);
  const other = await browser.newContext({ locale: 'en-US' });
  expected.watch(other);
  const watcher = await other.newPage();
  await openBoard(page, true, 'admin@demo.test');
  await openBoard(watcher, true, 'team_lead@demo.test');

  // The columns in rank order, with their cards.
  await expect(page.locator('[data-column-id] h2')).toHaveText(['Neu', 'In Bearbeitung', 'Qualitätsprüfung', 'Freigabe', 'Erledigt']);
  await expect(card(column(page, 'Neu'), 6)).toBeVisible();
  await expect(card(column(page, 'Neu'), 6).locator('[data-deadline]')).toHaveAttribute('data-deadline', 'critical_yellow');
  await expect(card(column(watcher, 'Neu'), 6)).toBeVisible();

  // A drags #6 from Neu to In Bearbeitung; B sees it arrive without a reload.
  await dragTo(page, card(page, 6), column(page, 'In Bearbeitung'));
  await expect(card(column(page, 'In Bearbeitung'), 6)).toBeVisible();
  await expect(card(column(watcher, 'In Bearbeitung'), 6)).toBeVisible();
  await expect(card(column(watcher, 'Neu'), 6)).toHaveCount(0);
  // The column's team (FM) became responsible.
  await expect(card(watcher, 6)).toContainText('FM');

  // B moves it back with the keyboard: Space, arrow left, Space; A sees it.
  await card(watcher, 6).focus();
  await watcher.keyboard.press('Space');
  await watcher.keyboard.press('ArrowLeft');
  await expect(column(watcher, 'Neu')).toHaveAttribute('data-targeted', 'true');
  await watcher.keyboard.press('Space');
  await expect(card(column(watcher, 'Neu'), 6)).toBeVisible();
  await expect(card(watcher, 6)).toBeFocused();
  await expect(card(column(page, 'Neu'), 6)).toBeVisible();

  // The order within a column: A drags Neu's last card onto its first; both
  // see the new order, and it is the server's (a reload keeps it).
  const neu = await order(page, 'Neu');
  expect(neu.length).toBeGreaterThan(2);
  const reordered = [neu[neu.length - 1], ...neu.slice(0, -1)];
  await dragOnto(page, card(page, neu[neu.length - 1]), card(page, neu[0]));
  await expect.poll(() => order(page, 'Neu')).toEqual(reordered);
  await expect.poll(() => order(watcher, 'Neu')).toEqual(reordered);
  // B moves the second card up by one with the keyboard: Space, arrow up, Space,
  // each step once the board has taken the last (its announcements say so).
  const live = watcher.locator('[id^="DndLiveRegion"]');
  await card(watcher, reordered[1]).focus();
  await watcher.keyboard.press('Space');
  await expect(live).toContainText('picked up in Neu');
  await watcher.keyboard.press('ArrowUp');
  await expect(live).toContainText(/Before .* in Neu/);
  await watcher.keyboard.press('Space');
  await expect(live).toContainText('moved to Neu');
  const swapped = [reordered[1], reordered[0], ...reordered.slice(2)];
  await expect.poll(() => order(watcher, 'Neu')).toEqual(swapped);
  await expect.poll(() => order(page, 'Neu')).toEqual(swapped);
  await openBoard(watcher);
  await expect.poll(() => order(watcher, 'Neu')).toEqual(swapped);

  // A column's "+": A creates a ticket in Neu; B sees it.
  await column(page, 'Neu').getByRole('button', { name: 'New ticket in Neu' }).click();
  const dialog = page.getByRole('dialog', { name: 'New ticket in Neu' });
  await dialog.getByLabel('Title').fill('Schaufenster gesprungen');
  await dialog.getByRole('combobox', { name: /Point of sale/ }).click();
  await page.getByRole('option', { name: 'Nordhandel Gare de Amiens' }).click();
  await dialog.getByRole('button', { name: 'Create ticket' }).click();
  await expect(dialog).toBeHidden();
  await expect(column(page, 'Neu').getByRole('button', { name: /Schaufenster gesprungen/ })).toBeVisible();
  await expect(column(watcher, 'Neu').getByRole('button', { name: /Schaufenster gesprungen/ })).toBeVisible();

  // A opens #10 (Enter on the focused card), edits its title and sees the timeline; B sees the new title.
  await card(page, 10).focus();
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: /^#10 / });
  await expect(drawer).toBeVisible();
  await drawer.getByLabel('Title').fill('Parkplatzmarkierung und Beschilderung erneuern');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Ticket saved.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: /#10 Parkplatzmarkierung und Beschilderung erneuern/ }).getByText('Title: Parkplatzmarkierung und Beschilderung erneuern', { exact: true }).first()).toBeVisible();
  await expect(card(watcher, 10)).toContainText('Parkplatzmarkierung und Beschilderung erneuern');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The #6 timeline names both moves; A comments on it, and B, who has #6
  // open, sees the comment arrive on the timeline without a reload.
  await card(watcher, 6).click();
  const sixB = watcher.getByRole('dialog', { name: /#6 Graffiti an der Fassade/ });
  await expect(sixB.getByText('Moved to Neu', { exact: true })).toBeVisible();
  await card(page, 6).click();
  const six = page.getByRole('dialog', { name: /#6 Graffiti an der Fassade/ });
  await expect(six.getByText('Moved to In Bearbeitung', { exact: true })).toBeVisible();
  await expect(six.getByText('Moved to Neu', { exact: true })).toBeVisible();
  await six.getByLabel('Comment').fill('Gerüst ist bestellt, Reinigung am Montag.');
  await six.getByRole('button', { name: 'Add comment' }).click();
  await expect(six.locator('[data-timeline-type="comment"]').getByText('Gerüst ist bestellt, Reinigung am Montag.')).toBeVisible();
  await expect(sixB.locator('[data-timeline-type="comment"]').getByText('Gerüst ist bestellt, Reinigung am Montag.')).toBeVisible();
  await expect(six.getByLabel('Comment')).toHaveValue('');
  await page.keyboard.press('Escape');
  await watcher.keyboard.press('Escape');

  // Filters: late shows only red cards.
  await page.getByRole('switch', { name: 'Overdue only' }).check();
  const badges = page.locator('[data-deadline]');
  await expect(badges.first()).toBeVisible();
  for (const status of await badges.evaluateAll((els) => els.map((e) => e.getAttribute('data-deadline')))) {
    expect(status).toBe('over_due_red');
  }
  await other.close();
});

test('a card moves two columns right with the keyboard, each step announced', async ({ page }) => {
  test.setTimeout(180_000);
  await openBoard(page, true, 'admin@demo.test');
  // #2 is the first card of In Bearbeitung; Freigabe is two columns to the right,
  // past the quality gate (only crossed, not entered).
  await expect(card(column(page, 'In Bearbeitung'), 2)).toBeVisible();
  const freigabe = await order(page, 'Freigabe');
  expect(freigabe.length).toBeGreaterThan(0);
  const live = page.locator('[id^="DndLiveRegion"]');
  await card(page, 2).focus();
  await page.keyboard.press('Space');
  await expect(live).toContainText('picked up in In Bearbeitung');
  await page.keyboard.press('ArrowRight');
  await expect(column(page, 'Qualitätsprüfung')).toHaveAttribute('data-targeted', 'true');
  await expect(live).toContainText('in Qualitätsprüfung');
  await page.keyboard.press('ArrowRight');
  await expect(column(page, 'Freigabe')).toHaveAttribute('data-targeted', 'true');
  await expect(column(page, 'Qualitätsprüfung')).not.toHaveAttribute('data-targeted', 'true');
  // At the height it was picked up at: before Freigabe's first card.
  await expect(live).toContainText('in Freigabe');
  await page.keyboard.press('Space');
  await expect(live).toContainText('moved to Freigabe');
  await expect(card(column(page, 'Freigabe'), 2)).toBeVisible();
  await expect(card(column(page, 'In Bearbeitung'), 2)).toHaveCount(0);
  await expect(card(page, 2)).toBeFocused();
  await expect.poll(() => order(page, 'Freigabe')).toEqual([2, ...freigabe]);
  // The server's: a reload keeps it there.
  await openBoard(page);
  await expect.poll(() => order(page, 'Freigabe')).toEqual([2, ...freigabe]);
});

test('a refused move puts the card back where the server says it is', async ({ page, request, expected }) => {
  test.setTimeout(180_000);
  expected.response(409, /\/tickets\/update$/);
  expected.response(422, /\/tickets\/update$/);
  // This window gets no live events, so it keeps showing a stale ticket.
  await page.route((url) => url.pathname === '/events', (route) => route.abort('aborted'));
  await openBoard(page, false, 'admin@demo.test');
  await expect(card(column(page, 'In Bearbeitung'), 7)).toBeVisible();

  // Someone else moves #7 to Neu meanwhile.
  const token = await adminToken(request);
  const read = await request.post('/api/?ticket', {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'read', entity: 'ticket', id: 7 },
  });
  const version = ((await read.json()) as { data: { row_version: number } }).data.row_version;
  const moved = await request.put('/tickets/update', {
    headers: { Authorization: `Bearer ${token}` },
    data: { ticket_id: 7, row_version: version, columnx_id: 1 },
  });
  expect(moved.status()).toBe(200);

  // The stale window still shows it in In Bearbeitung and moves it to Erledigt: 409, the card goes to Neu.
  await dragTo(page, card(page, 7), column(page, 'Erledigt'));
  await expect(page.getByText('Someone else changed this record meanwhile. Reload it to see the changes.')).toBeVisible();
  await expect(card(column(page, 'Neu'), 7)).toBeVisible();
  await expect(card(column(page, 'Erledigt'), 7)).toHaveCount(0);

  // A quality gate without the board's documents: 422 naming the missing type, the card stays.
  await dragTo(page, card(page, 7), column(page, 'Qualitätsprüfung'));
  await expect(page.getByText(/Übergabeprotokoll/)).toBeVisible();
  await expect(card(column(page, 'Neu'), 7)).toBeVisible();
  await expect(card(column(page, 'Qualitätsprüfung'), 7)).toHaveCount(0);
});

test('the FM user lands on the first board and sees only their board and their customer group’s tickets', async ({ page, expected }) => {
  // The New Business board is not theirs: the server answers its tickets with 404.
  expected.response(404, /\/tickets\?board_id=2/);
  test.setTimeout(120_000);
  await logIn(page, 'fm@demo.test');
  await expect(page).toHaveURL(/\/app\/table\/board\/1\/kanban$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Facility Management' })).toBeVisible({ timeout: 30_000 });
  await expect(card(page, 6)).toBeVisible();
  // Südmarkt's tickets (#16–#24) are another customer group's.
  await expect(card(page, 16)).toHaveCount(0);
  await expect(page.locator('[data-ticket-id]').filter({ hasText: 'Südmarkt' })).toHaveCount(0);
  // Only the facility-management board is theirs (decision 0027): nothing to switch to.
  await expect(page.getByRole('combobox', { name: 'Board' })).toHaveCount(0);
  await page.goto('/app/table/board/2/kanban');
  await expect(page).toHaveURL(/\/app\/error-404$/, { timeout: 30_000 });
});

for (const skin of ['light', 'dark'] as const) {
  test(`the board in the ${skin} skin`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.addInitScript((value) => window.localStorage.setItem('portfolio.skin', value), skin);
    await openBoard(page, true, 'admin@demo.test');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', skin);
    await expectAccessible(page, `the kanban (${skin})`);
    await snap(page, `kanban-${skin}`);
    await card(page, 8).click();
    await expect(page.getByRole('dialog', { name: /#8/ })).toBeVisible();
    await snap(page, `kanban-drawer-${skin}`);
  });
}

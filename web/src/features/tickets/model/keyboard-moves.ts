/**
 * Keyboard moves on the kanban, as pure functions over the board's measured
 * places (dnd-kit's droppable rects): which spot the carried card goes to
 * on an arrow key, and what it is then over. dnd-kit's own
 * `sortableKeyboardCoordinates` looks for the nearest droppable in the
 * arrow's direction among every card and column, which across more than
 * one column lands on the wrong card or column; here ArrowRight and
 * ArrowLeft jump to the next column (keeping the height), ArrowUp and
 * ArrowDown move by one card within the column.
 */

/** A measured rectangle (viewport coordinates, as dnd-kit's). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A droppable of the board: a column or a card of a column. */
export interface Spot {
  id: string | number;
  column: number;
  card: boolean;
  rect: Box;
}

const centerX = (b: Box) => b.left + b.width / 2;
const centerY = (b: Box) => b.top + b.height / 2;

/** The columns, left to right. */
function columnsOf(spots: readonly Spot[]): Spot[] {
  return spots.filter((s) => !s.card).sort((a, b) => a.rect.left - b.rect.left);
}

/** The column under the middle of `at` (else the nearest). */
function columnAt(spots: readonly Spot[], at: Box): Spot | undefined {
  const cols = columnsOf(spots);
  const x = centerX(at);
  const inside = cols.find((c) => x >= c.rect.left && x <= c.rect.left + c.rect.width);
  if (inside) return inside;
  let best: Spot | undefined;
  for (const c of cols) if (!best || Math.abs(centerX(c.rect) - x) < Math.abs(centerX(best.rect) - x)) best = c;
  return best;
}

/** The cards of a column, top to bottom, without the carried one. */
function cardsOf(spots: readonly Spot[], column: number, active: string | number): Spot[] {
  return spots.filter((s) => s.card && s.column === column && s.id !== active).sort((a, b) => a.rect.top - b.rect.top);
}

/**
 * Where the carried card (now at `at`) goes on key `code`: the new top-left
 * corner, or undefined when it cannot go further that way (or the key is
 * not an arrow).
 */
export function keyboardSpot(code: string, spots: readonly Spot[], active: string | number, at: Box): { x: number; y: number } | undefined {
  const here = columnAt(spots, at);
  if (!here) return undefined;
  switch (code) {
    case 'ArrowRight':
    case 'ArrowLeft': {
      const cols = columnsOf(spots);
      const to = cols[cols.indexOf(here) + (code === 'ArrowRight' ? 1 : -1)];
      if (!to) return undefined;
      const r = to.rect;
      const y = Math.min(Math.max(at.top, r.top), Math.max(r.top, r.top + r.height - at.height));
      return { x: r.left + (r.width - at.width) / 2, y };
    }
    case 'ArrowDown': {
      const cy = centerY(at);
      // Past the card the place is now before (one at the same height counts).
      const next = cardsOf(spots, here.column, active).find((c) => centerY(c.rect) > cy - 0.5);
      return next ? { x: at.left, y: centerY(next.rect) + 1 - at.height / 2 } : undefined;
    }
    case 'ArrowUp': {
      const cy = centerY(at);
      const prev = cardsOf(spots, here.column, active)
        .filter((c) => centerY(c.rect) < cy - 0.5)
        .pop();
      return prev ? { x: at.left, y: centerY(prev.rect) - 1 - at.height / 2 } : undefined;
    }
  }
  return undefined;
}

/**
 * What the carried card at `at` is over, in the terms `dropPlace` reads
 * (board.ts): the place is before the first card of the column under it
 * whose middle is not above the card's middle (a card at the same height
 * gives up its place), or the column's end. In its own
 * column, `dropPlace` reads a card below the carried one as "after it", so
 * the card before that place is answered instead, and the carried card
 * itself when the place is its own.
 */
export function keyboardOver(spots: readonly Spot[], active: string | number, activeColumn: number, at: Box): string | number | undefined {
  // Right after the pick-up the board may not be measured yet: its own place.
  if (!spots.some((s) => s.id === active)) return active;
  const here = columnAt(spots, at);
  if (!here) return undefined;
  const cy = centerY(at);
  const before = cardsOf(spots, here.column, active).find((c) => centerY(c.rect) > cy - 0.5);
  if (!before) return here.id;
  if (here.column !== activeColumn) return before.id;
  const own = spots.filter((s) => s.card && s.column === here.column).sort((a, b) => a.rect.top - b.rect.top);
  const from = own.findIndex((s) => s.id === active);
  const at2 = own.indexOf(before);
  if (from < 0 || at2 < from) return before.id;
  if (at2 === from + 1) return active;
  return own[at2 - 1].id;
}

import { describe, expect, it } from 'vitest';
import { type Box, keyboardOver, keyboardSpot, type Spot } from './keyboard-moves';

// Three columns 300 wide, 12 apart; cards 100 high, 8 apart, from y = 50.
const colRect = (i: number): Box => ({ left: i * 312, top: 0, width: 300, height: 800 });
const cardRect = (col: number, row: number): Box => ({ left: col * 312 + 10, top: 50 + row * 108, width: 280, height: 100 });
const spots: Spot[] = [
  ...[0, 1, 2].map((i) => ({ id: `column-${i + 1}`, column: i + 1, card: false, rect: colRect(i) })),
  // column 1: cards 11, 12, 13; column 2: 21, 22; column 3: none
  { id: 11, column: 1, card: true, rect: cardRect(0, 0) },
  { id: 12, column: 1, card: true, rect: cardRect(0, 1) },
  { id: 13, column: 1, card: true, rect: cardRect(0, 2) },
  { id: 21, column: 2, card: true, rect: cardRect(1, 0) },
  { id: 22, column: 2, card: true, rect: cardRect(1, 1) },
];
const at = (p: { x: number; y: number }): Box => ({ left: p.x, top: p.y, width: 280, height: 100 });

/** Presses the keys with card `active` of column 1 picked up; answers what it is over. */
function press(active: number, start: Box, ...keys: string[]): { over: string | number | undefined; box: Box } {
  let box = start;
  for (const k of keys) {
    const next = keyboardSpot(k, spots, active, box);
    if (next) box = at(next);
  }
  return { over: keyboardOver(spots, active, 1, box), box };
}

describe('keyboard moves on the kanban', () => {
  it('picked up, the card is over its own place', () => {
    expect(press(12, cardRect(0, 1)).over).toBe(12);
    expect(press(13, cardRect(0, 2)).over).toBe('column-1'); // the last: the column's end, its own place
  });

  it('moves two columns right, column by column, to the same height', () => {
    const one = press(11, cardRect(0, 0), 'ArrowRight');
    expect(one.over).toBe(21); // before the first card of column 2
    const two = press(11, cardRect(0, 0), 'ArrowRight', 'ArrowRight');
    expect(two.over).toBe('column-3');
    expect(two.box.left).toBeGreaterThanOrEqual(colRect(2).left);
    // no fourth column: it stays
    expect(press(11, cardRect(0, 0), 'ArrowRight', 'ArrowRight', 'ArrowRight').over).toBe('column-3');
    // and back
    expect(press(11, cardRect(0, 0), 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft').over).toBe(11);
  });

  it('moves card by card within another column', () => {
    expect(press(11, cardRect(0, 0), 'ArrowRight', 'ArrowDown').over).toBe(22);
    expect(press(11, cardRect(0, 0), 'ArrowRight', 'ArrowDown', 'ArrowDown').over).toBe('column-2');
    expect(press(11, cardRect(0, 0), 'ArrowRight', 'ArrowDown', 'ArrowDown', 'ArrowUp').over).toBe(22);
  });

  it('in its own column, a place below answers the card it goes after (as dropPlace reads it)', () => {
    // 11 down by one: after 12, which dropPlace reads from "over 12"
    expect(press(11, cardRect(0, 0), 'ArrowDown').over).toBe(12);
    expect(press(11, cardRect(0, 0), 'ArrowDown', 'ArrowDown').over).toBe('column-1');
    // 13 up by one: before 12
    expect(press(13, cardRect(0, 2), 'ArrowUp').over).toBe(12);
    expect(press(13, cardRect(0, 2), 'ArrowUp', 'ArrowUp').over).toBe(11);
    expect(press(13, cardRect(0, 2), 'ArrowUp', 'ArrowUp', 'ArrowUp').over).toBe(11);
  });

  it('before the board is measured, the card is over its own place', () => {
    expect(keyboardOver(spots.filter((s) => s.id !== 12), 12, 1, cardRect(0, 1))).toBe(12);
  });

  it('ignores other keys', () => {
    expect(keyboardSpot('KeyA', spots, 11, cardRect(0, 0))).toBeUndefined();
  });
});

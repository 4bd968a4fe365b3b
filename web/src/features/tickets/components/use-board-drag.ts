import { useCallback, useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import type { Ticket } from '../model/board';

/** A pointer must travel this far (px) before a press becomes a drag, so a click stays a click. */
export const ACTIVATION_DISTANCE = 6;

/** A card being dragged with the pointer. */
export interface PointerDrag {
  ticket: Ticket;
  /** Where the pointer is and where on the card it took hold. */
  x: number;
  y: number;
  offsetX: number;
  offsetY: number;
  width: number;
  /** The column under the pointer (null: none). */
  over: number | null;
}

/** Near this many px from the board's left or right edge, a drag scrolls the board. */
const EDGE = 60;

/** Scrolls the board sideways when the pointer carries a card near its edge. */
function scrollNearEdge(x: number, y: number): void {
  const board = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-kanban-board]');
  if (!board) return;
  const r = board.getBoundingClientRect();
  if (x < r.left + EDGE) board.scrollLeft -= 24;
  else if (x > r.right - EDGE) board.scrollLeft += 24;
}

/** The column element under a point: the nearest [data-column-id]. */
function columnAt(x: number, y: number): number | null {
  const el = document.elementFromPoint(x, y);
  const col = el?.closest<HTMLElement>('[data-column-id]');
  return col ? Number(col.dataset.columnId) : null;
}

/**
 * Dragging cards with the pointer (mouse, pen, touch): a press that moves
 * more than ACTIVATION_DISTANCE picks the card up, the column under the
 * pointer is the drop target, releasing drops it there (onDrop), Escape
 * cancels. `wasDrag` tells a card's click handler to ignore the click that
 * ends a drag.
 */
export function usePointerDrag(onDrop: (ticket: Ticket, column: number) => void) {
  const [drag, setDrag] = useState<PointerDrag | null>(null);
  const press = useRef<{ ticket: Ticket; x: number; y: number; rect: DOMRect; id: number } | null>(null);
  const dragging = useRef<PointerDrag | null>(null);
  const justDropped = useRef(false);
  const onDropRef = useRef(onDrop);
  onDropRef.current = onDrop;

  const end = useCallback((drop: boolean) => {
    const d = dragging.current;
    press.current = null;
    dragging.current = null;
    setDrag(null);
    if (d) {
      justDropped.current = true;
      setTimeout(() => {
        justDropped.current = false;
      }, 0);
      if (drop && d.over !== null && d.over !== d.ticket.columnx_id) onDropRef.current(d.ticket, d.over);
    }
  }, []);

  useEffect(() => {
    const move = (e: PointerEvent) => {
      const p = press.current;
      if (!p || e.pointerId !== p.id) return;
      if (!dragging.current && Math.hypot(e.clientX - p.x, e.clientY - p.y) < ACTIVATION_DISTANCE) return;
      e.preventDefault();
      scrollNearEdge(e.clientX, e.clientY);
      const next: PointerDrag = {
        ticket: p.ticket,
        x: e.clientX,
        y: e.clientY,
        offsetX: p.x - p.rect.left,
        offsetY: p.y - p.rect.top,
        width: p.rect.width,
        over: columnAt(e.clientX, e.clientY),
      };
      dragging.current = next;
      setDrag(next);
    };
    const up = (e: PointerEvent) => {
      if (!press.current || e.pointerId !== press.current.id) return;
      end(true);
    };
    const cancel = () => end(false);
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && dragging.current) end(false);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('keydown', key);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('keydown', key);
    };
  }, [end]);

  const onPointerDown = useCallback((e: ReactPointerEvent<HTMLElement>, ticket: Ticket) => {
    if (e.button !== 0 || !e.isPrimary) return;
    press.current = { ticket, x: e.clientX, y: e.clientY, rect: e.currentTarget.getBoundingClientRect(), id: e.pointerId };
  }, []);

  const wasDrag = useCallback(() => justDropped.current, []);

  return { drag, onPointerDown, wasDrag };
}

/** A card picked up with the keyboard (Space), carried with the arrow keys. */
export interface KeyboardDrag {
  ticket: Ticket;
  over: number;
}

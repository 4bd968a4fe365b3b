/**
 * The live connection of the kanban: GET /events through the browser's
 * EventSource, opened with a single-use stream ticket (POST /events/ticket)
 * so that no access token goes into a URL. A stream ends on errors and
 * after the server's lifetime (5 minutes); since its ticket was used, the
 * connection is reopened here with a fresh ticket, naming the last event
 * seen (last_event_id) so nothing of the gap is lost; the server answers
 * `reset` when it no longer has the gap.
 */

/** One event of GET /events. */
export interface LiveEvent {
  event_id: string;
  entity: string;
  id: number;
  action: 'create' | 'update' | 'delete';
}

/** The part of EventSource the stream uses (a fake in tests). */
export interface EventSourceLike {
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onopen: ((ev: Event) => void) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

export interface LiveStreamOptions {
  /** A fresh stream ticket (POST /events/ticket). */
  ticket: () => Promise<string>;
  /** Opens an EventSource on url. */
  open: (url: string) => EventSourceLike;
  onEvent: (event: LiveEvent) => void;
  /** The events since the last one seen are gone: reload everything. */
  onReset: () => void;
  /** Connected (true) or waiting to reconnect (false). */
  onStatus?: (connected: boolean) => void;
  /** Timers (fakes in tests). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** The delays before reconnecting: 1 s, doubling up to 30 s; reset on a good connection. */
export function reconnectDelay(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt), 30_000);
}

/** The URL of the stream for ticket, resuming after lastId when known. */
export function streamUrl(ticket: string, lastId: string | null): string {
  const q = new URLSearchParams({ ticket });
  if (lastId) q.set('last_event_id', lastId);
  return `/events?${q.toString()}`;
}

/** Parses one message's data; null when it is not an event. */
export function parseEvent(data: unknown): LiveEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const v = JSON.parse(data) as Partial<LiveEvent>;
    if (typeof v.entity !== 'string' || typeof v.id !== 'number' || typeof v.action !== 'string') return null;
    return { event_id: String(v.event_id ?? ''), entity: v.entity, id: v.id, action: v.action };
  } catch {
    return null;
  }
}

/** A live stream that keeps itself connected until stop(). */
export class LiveStream {
  private es: EventSourceLike | null = null;
  private lastId: string | null = null;
  private attempt = 0;
  private timer: unknown = null;
  private stopped = false;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly o: LiveStreamOptions) {
    this.setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = o.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** The id of the last event received. */
  get lastEventId(): string | null {
    return this.lastId;
  }

  /** Opens the stream. */
  start(): void {
    this.stopped = false;
    void this.connect();
  }

  /** Closes the stream for good. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.es?.close();
    this.es = null;
  }

  private async connect(): Promise<void> {
    let ticket: string;
    try {
      ticket = await this.o.ticket();
    } catch {
      this.retry();
      return;
    }
    if (this.stopped) return;
    const es = this.o.open(streamUrl(ticket, this.lastId));
    this.es = es;
    es.onopen = () => {
      this.attempt = 0;
      this.o.onStatus?.(true);
    };
    es.onmessage = (ev) => {
      if (ev.lastEventId) this.lastId = ev.lastEventId;
      const event = parseEvent(ev.data);
      if (event) {
        if (!event.event_id && ev.lastEventId) event.event_id = ev.lastEventId;
        this.o.onEvent(event);
      }
    };
    es.addEventListener('reset', () => this.o.onReset());
    es.onerror = () => {
      // The ticket was used: EventSource's own reconnect would be refused.
      if (this.es !== es) return;
      es.close();
      this.es = null;
      this.o.onStatus?.(false);
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    const delay = reconnectDelay(this.attempt++);
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.connect();
    }, delay);
  }
}

/** What a batch of events asks of the board. */
export interface EventPlan {
  /** Too many changes (or a reset): reload the whole board. */
  reloadAll: boolean;
  /** Tickets to read again (created or updated). */
  fetch: number[];
  /** Tickets gone (deleted). */
  remove: number[];
}

/** Above this many tickets in one batch, the board is reloaded instead. */
export const RELOAD_FROM = 25;

/** Plans a batch of events: the last action per ticket wins; other entities are ignored. */
export function planEvents(events: readonly LiveEvent[]): EventPlan {
  const last = new Map<number, LiveEvent['action']>();
  for (const e of events) if (e.entity === 'ticket') last.set(e.id, e.action);
  if (last.size > RELOAD_FROM) return { reloadAll: true, fetch: [], remove: [] };
  const fetch: number[] = [];
  const remove: number[] = [];
  for (const [id, action] of last) (action === 'delete' ? remove : fetch).push(id);
  return { reloadAll: false, fetch, remove };
}

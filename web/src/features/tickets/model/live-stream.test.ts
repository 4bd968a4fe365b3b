import { describe, expect, it, vi } from 'vitest';
import { type EventSourceLike, type LiveEvent, LiveStream, parseEvent, planEvents, RELOAD_FROM, reconnectDelay, streamUrl } from './live-stream';

/** A scripted EventSource. */
class FakeSource implements EventSourceLike {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onopen: ((ev: Event) => void) | null = null;
  closed = false;
  listeners = new Map<string, (ev: MessageEvent) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (ev: MessageEvent) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  send(id: string, data: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data), lastEventId: id }));
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup() {
  const sources: FakeSource[] = [];
  const timers: (() => void)[] = [];
  const events: LiveEvent[] = [];
  const resets: number[] = [];
  const status: boolean[] = [];
  let n = 0;
  const ticket = vi.fn(async () => `t${++n}`);
  const stream = new LiveStream({
    ticket,
    open: (url) => {
      const s = new FakeSource(url);
      sources.push(s);
      return s;
    },
    onEvent: (e) => events.push(e),
    onReset: () => resets.push(1),
    onStatus: (c) => status.push(c),
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
  });
  return { stream, sources, timers, events, resets, status, ticket };
}

describe('the live stream', () => {
  it('opens with a fresh ticket and passes the events on', async () => {
    const s = setup();
    s.stream.start();
    await flush();
    expect(s.sources[0].url).toBe('/events?ticket=t1');
    s.sources[0].onopen?.(new Event('open'));
    s.sources[0].send('5', { event_id: '5', entity: 'ticket', id: 3, action: 'update' });
    s.sources[0].onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(s.events).toEqual([{ event_id: '5', entity: 'ticket', id: 3, action: 'update' }]);
    expect(s.status).toEqual([true]);
    expect(s.stream.lastEventId).toBe('5');
  });

  it('reconnects after an error or the stream end with a new ticket, naming the last event', async () => {
    const s = setup();
    s.stream.start();
    await flush();
    s.sources[0].send('0000000000000042', { entity: 'ticket', id: 1, action: 'create' });
    s.sources[0].onerror?.(new Event('error'));
    expect(s.sources[0].closed).toBe(true);
    expect(s.status).toEqual([false]);
    expect(s.timers).toHaveLength(1);
    s.timers[0]();
    await flush();
    expect(s.ticket).toHaveBeenCalledTimes(2);
    expect(s.sources[1].url).toBe('/events?ticket=t2&last_event_id=0000000000000042');
  });

  it('asks for a full reload on reset', async () => {
    const s = setup();
    s.stream.start();
    await flush();
    s.sources[0].listeners.get('reset')?.(new MessageEvent('reset', { data: '{}' }));
    expect(s.resets).toEqual([1]);
  });

  it('retries when no ticket can be had, and stops for good', async () => {
    const s = setup();
    s.ticket.mockRejectedValueOnce(new Error('offline'));
    s.stream.start();
    await flush();
    expect(s.sources).toHaveLength(0);
    expect(s.timers).toHaveLength(1);
    s.timers[0]();
    await flush();
    expect(s.sources).toHaveLength(1);
    s.stream.stop();
    expect(s.sources[0].closed).toBe(true);
    s.sources[0].onerror?.(new Event('error'));
    expect(s.timers).toHaveLength(1);
  });

  it('backs off up to 30 s', () => {
    expect([0, 1, 2, 5, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 30000, 30000]);
  });

  it('builds the stream URL and parses events', () => {
    expect(streamUrl('a b', null)).toBe('/events?ticket=a+b');
    expect(parseEvent('{"entity":"ticket","id":2,"action":"delete"}')).toEqual({ event_id: '', entity: 'ticket', id: 2, action: 'delete' });
    expect(parseEvent('{"entity":"ticket"}')).toBeNull();
    expect(parseEvent(42)).toBeNull();
  });
});

describe('planning a batch of events', () => {
  const ev = (id: number, action: LiveEvent['action'], entity = 'ticket'): LiveEvent => ({ event_id: '', entity, id, action });

  it('reads created and updated tickets again once each, removes deleted ones, ignores other entities', () => {
    expect(planEvents([ev(1, 'create'), ev(1, 'update'), ev(2, 'update'), ev(3, 'update'), ev(3, 'delete'), ev(9, 'update', 'pos')])).toEqual({
      reloadAll: false,
      fetch: [1, 2],
      remove: [3],
    });
  });

  it('reloads the board when many tickets change at once', () => {
    const many = Array.from({ length: RELOAD_FROM + 1 }, (_, i) => ev(i + 1, 'update'));
    expect(planEvents(many).reloadAll).toBe(true);
  });
});

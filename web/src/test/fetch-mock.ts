import { vi } from 'vitest';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

export type Responder = (call: RecordedCall) => Response | Promise<Response>;

export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** Replaces global fetch with `responder` and records every call. */
export function mockFetch(responder: Responder) {
  const calls: RecordedCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    let body: unknown = init?.body;
    if (typeof body === 'string' && headers.get('Content-Type')?.includes('json')) body = JSON.parse(body);
    if (body instanceof URLSearchParams) body = Object.fromEntries(body.entries());
    const call: RecordedCall = { url: String(input), method: init?.method ?? 'GET', headers, body };
    calls.push(call);
    if (init?.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    return responder(call);
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

/** A promise with its resolve function, to hold answers back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

import { vi } from 'vitest';

/** One request sent through the fake XMLHttpRequest. */
export interface XhrCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Reports upload progress (bytes loaded of total). */
  progress: (loaded: number, total: number) => void;
  /** Answers the request (JSON body). */
  respond: (status: number, body?: unknown) => void;
  fail: () => void;
}

/**
 * Replaces XMLHttpRequest (uploads with progress) with a fake that records
 * every request and hands it to `onSend`, which answers it now or later.
 */
export function mockXhr(onSend: (call: XhrCall) => void) {
  const calls: XhrCall[] = [];
  class FakeXhr {
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    timeout = 0;
    status = 0;
    responseText = '';
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: unknown) {
      const call: XhrCall = {
        method: this.method,
        url: this.url,
        headers: this.headers,
        body,
        progress: (loaded, total) => this.upload.onprogress?.({ lengthComputable: true, loaded, total }),
        respond: (status, answer) => {
          this.status = status;
          this.responseText = answer === undefined ? '' : JSON.stringify(answer);
          this.onload?.();
        },
        fail: () => this.onerror?.(),
      };
      calls.push(call);
      onSend(call);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { calls };
}

/** The multipart fields of an upload, in the order sent (a file as "file:<name>"). */
export function formFields(body: unknown): [string, string][] {
  return [...(body as FormData).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${(v as File).name}`]);
}

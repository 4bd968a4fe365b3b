import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Page, test as base } from '@playwright/test';

export { expect };

/**
 * What a spec declares it expects to go wrong: every other console error,
 * uncaught page error, failed request or error answer (status 400 and up)
 * of the browser fails the spec.
 */
export interface Expected {
  /** Allows answers with `status` to requests whose URL matches `url` (and the console line the browser logs for them). */
  response(status: number, url: RegExp): void;
  /** Allows console errors whose text matches `text`. */
  console(text: RegExp): void;
  /** Watches another browser context too (a second person's window). */
  watch(context: BrowserContext): void;
}

interface Problem {
  kind: 'console' | 'page error' | 'request failed' | 'response';
  text: string;
  status?: number;
  url?: string;
}

/** The access token is refreshed at this path. */
const REFRESH = /\/auth\/refresh\/token$/;

/**
 * The browser's console line for an error answer or a failed request: the
 * response and requestfailed events report those, with their URL.
 */
const RESOURCE_LINE = /^Failed to load resource: /;

function watchContext(context: BrowserContext, problems: Problem[], refreshed: string[]): void {
  context.on('console', (message) => {
    if (message.type() !== 'error' || RESOURCE_LINE.test(message.text())) return;
    problems.push({ kind: 'console', text: message.text(), url: message.location().url });
  });
  context.on('weberror', (error) => problems.push({ kind: 'page error', text: String(error.error()) }));
  context.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // Requests the app cancels (a query nobody waits for any more, a navigation, a download) are no failures.
    if (failure === 'net::ERR_ABORTED') return;
    problems.push({ kind: 'request failed', text: `${request.method()} ${request.url()}: ${failure}`, url: request.url() });
  });
  context.on('response', (response) => {
    if (REFRESH.test(response.url()) && response.status() === 200) refreshed.push(response.url());
    if (response.status() < 400) return;
    problems.push({
      kind: 'response',
      text: `${response.status()} ${response.request().method()} ${response.url()}`,
      status: response.status(),
      url: response.url(),
    });
  });
}

/**
 * The specs' `test`: like Playwright's, plus the `expected` fixture, which
 * runs in every spec (auto) and fails it on any console error, page error,
 * failed request or error answer it did not declare. A 401 of an expired
 * access token is expected everywhere, once the app has refreshed its token
 * (the e2e server's tokens live 8 s).
 */
export const test = base.extend<{ expected: Expected }>({
  expected: [
    async ({ context }, use) => {
      const problems: Problem[] = [];
      const refreshed: string[] = [];
      const allowedResponses: { status: number; url: RegExp }[] = [];
      const allowedConsole: RegExp[] = [];
      watchContext(context, problems, refreshed);
      await use({
        response: (status, url) => allowedResponses.push({ status, url }),
        console: (text) => allowedConsole.push(text),
        watch: (other) => watchContext(other, problems, refreshed),
      });
      const unexpected = () =>
        problems.filter((p) => {
          if (p.kind === 'response') {
            if (allowedResponses.some((a) => a.status === p.status && a.url.test(p.url ?? ''))) return false;
            // A 401 of an expired access token: the app refreshed it (before the
            // answer came, for another request, or after it).
            return !(p.status === 401 && refreshed.length > 0);
          }
          if (p.kind === 'console' || p.kind === 'page error') return !allowedConsole.some((re) => re.test(p.text));
          return true;
        });
      // A 401 right at the end may still wait for its refresh.
      if (problems.some((p) => p.status === 401) && refreshed.length === 0) {
        const page = context.pages()[0];
        await page?.waitForResponse((r) => REFRESH.test(r.url()), { timeout: 5_000 }).catch(() => undefined);
      }
      const left = unexpected();
      if (left.length > 0) {
        throw new Error(`Unexpected browser errors (declare expected ones with the "expected" fixture):\n${left
          .map((p) => `  ${p.kind}: ${p.text}`)
          .join('\n')}`);
      }
    },
    { auto: true },
  ],
});

/** The WCAG 2.2 AA rules axe-core checks. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Checks the page as it is now with axe-core against WCAG 2.2 AA: no
 * serious or critical violation. The message names each rule and the
 * elements that break it.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`);
  expect(report, `accessibility of ${what}`).toEqual([]);
}

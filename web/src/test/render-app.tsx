import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import en from '../../../internal/i18n/locales/en.json';
import { routes } from '../app/routes';
import { AppProviders } from '../app/providers/app-providers';
import { createQueryClient } from '../lib/query-client';
import { type CurrentUser, type RawAbilityRule, session } from '../lib/session';
import { json, mockFetch, type RecordedCall } from './fetch-mock';

export function makeUser(rules: RawAbilityRule[], extra: Partial<CurrentUser> = {}): CurrentUser {
  return {
    user_id: 5,
    user_email: 'tester@demo.test',
    user_firstname: 'Tess',
    user_lastname: 'Tester',
    team_id: [],
    teams: [],
    rules,
    ...extra,
  };
}

/** Logs `user` in (tokens and record in localStorage) and answers GET /user/ with it. */
export function loginAs(user: CurrentUser) {
  session.setTokens('access', 'refresh', 900);
  session.setUser(user);
}

/** Renders the real route tree at `path` with a fake server; `handler` may answer first. */
export function renderApp(
  path: string,
  user?: CurrentUser,
  handler?: (call: RecordedCall) => Response | Promise<Response> | undefined,
) {
  const server = mockFetch((call) => {
    const answer = handler?.(call);
    if (answer) return answer;
    if (call.url === '/specific-api') {
      const rows = Object.entries(en).map(([translation_id, translation_text]) => ({ translation_id, translation_text }));
      return json(200, { data: { data: rows, total: rows.length } });
    }
    if (call.url === '/user/' && user) return json(200, user);
    return json(404, { detail: 'not found' });
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, server, ...view };
}

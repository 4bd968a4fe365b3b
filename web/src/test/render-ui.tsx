import { AbilityProvider } from '@casl/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import en from '../../../internal/i18n/locales/en.json';
import { i18n } from '../lib/i18n-instance';
import { buildAbility } from '../lib/ability';
import { createQueryClient } from '../lib/query-client';
import type { RawAbilityRule } from '../lib/session';

/** English texts in the shared i18n instance. */
export function loadEnglish(): void {
  i18n.addResourceBundle('en', 'translation', en, true, true);
  void i18n.changeLanguage('en');
}

/**
 * Renders a piece of UI with the app's providers (theme, queries, texts,
 * abilities: an administrator's unless `rules` say otherwise) inside a router.
 */
export function renderUi(ui: ReactNode, rules: RawAbilityRule[] = [{ action: 'manage', subject: 'all' }]) {
  loadEnglish();
  const client = createQueryClient();
  const router = createMemoryRouter([{ path: '*', element: ui }]);
  return render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <AbilityProvider value={buildAbility(rules)}>
            <RouterProvider router={router} />
          </AbilityProvider>
        </I18nextProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

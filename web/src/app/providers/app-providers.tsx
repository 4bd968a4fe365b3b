import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { AbilityProvider } from '../../lib/ability-context';
import { i18n } from '../../lib/i18n';
import { TOAST_DURATION_MS } from '../../lib/notify';
import { createQueryClient } from '../../lib/query-client';
import { I18nGate } from './i18n-gate';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

/** Everything around the router: theme and skin, toasts, modals, queries, texts, rights. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      cssVariablesResolver={cssVariablesResolver}
    >
      <Notifications position="top-right" autoClose={TOAST_DURATION_MS} limit={4} />
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <I18nGate>
            <AbilityProvider>{children}</AbilityProvider>
          </I18nGate>
        </I18nextProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

import { Box, Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/**
 * The top of the route tree: shows a progress bar while a navigation loads
 * (lazy route chunks) and hides it when every navigation has finished.
 */
export function RootShell() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state !== 'idle';
  return (
    <>
      {busy ? (
        <Box pos="fixed" top={0} left={0} right={0} style={{ zIndex: 1000 }} data-testid="navigation-progress">
          <Progress value={100} animated striped size="xs" radius={0} aria-label={t('general.loading')} />
        </Box>
      ) : null}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

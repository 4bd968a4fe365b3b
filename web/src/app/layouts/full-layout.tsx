import { Box, Group } from '@mantine/core';
import { Outlet } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SkinToggle } from '../../components/skin-toggle';

/** The full layout: no menu, for authentication, status and popup pages. */
export function FullLayout() {
  return (
    <Box mih="100vh" style={{ background: 'var(--portfolio-full-bg)' }}>
      <Group justify="flex-end" gap={4} p="sm" pos="absolute" top={0} right={0} style={{ zIndex: 10 }}>
        <LanguageSwitcher />
        <SkinToggle />
      </Group>
      <Box component="main" pt={56} px="md" pb="xl">
        <Outlet />
      </Box>
    </Box>
  );
}

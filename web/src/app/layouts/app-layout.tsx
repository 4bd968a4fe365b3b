import { AppShell, Box, Burger, Group, UnstyledButton } from '@mantine/core';
import { useDisclosure, useElementSize } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/brand';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SkinToggle } from '../../components/skin-toggle';
import { useAbility } from '../../lib/ability-context';
import { visibleMenu } from '../menu';
import { useMenuLayout } from './layout-preference';
import { LayoutSwitch } from './layout-switch';
import { MenuSearch } from './menu-search';
import { SideMenu } from './side-menu';
import { TopMenu } from './top-menu';
import { UserMenu } from './user-menu';

/**
 * The layout of the application pages: vertical (side menu) or horizontal
 * (top menu), as the user chose. On phones both use a burger menu.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const ability = useAbility();
  const sections = useMemo(() => visibleMenu(ability), [ability]);
  const [layout] = useMenuLayout();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const horizontal = layout === 'horizontal';
  const breakpoint = horizontal ? 'md' : 'sm';

  useEffect(() => close(), [location.pathname, close]);
  // The top menu wraps on narrow screens: the header is as tall as its lines.
  const { ref: menuRef, height: menuHeight } = useElementSize();

  return (
    <AppShell
      header={{ height: horizontal ? { base: 60, md: 60 + Math.max(44, Math.ceil(menuHeight)) } : 60 }}
      navbar={{
        width: { sm: 260, lg: 280 },
        breakpoint,
        collapsed: { mobile: !opened, desktop: horizontal },
      }}
      padding={{ base: 'sm', sm: 'md', lg: 'lg' }}
      data-layout={layout}
    >
      <AppShell.Header>
        <Group h={60} px="md" gap="sm" wrap="nowrap">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom={breakpoint}
            size="sm"
            aria-label={opened ? t('layout.close_menu') : t('layout.open_menu')}
          />
          <UnstyledButton component={Link} to="/app" aria-label={t('layout.home')}>
            {/* On a phone the header's buttons need the room: the icon stands for the name. */}
            <Brand nameFrom="xs" />
          </UnstyledButton>
          <div style={{ flex: 1 }} />
          <Group gap={4} wrap="nowrap" ml="auto">
            <MenuSearch />
            <LanguageSwitcher />
            <LayoutSwitch />
            <SkinToggle />
            <UserMenu />
          </Group>
        </Group>
        {horizontal ? (
          <Box visibleFrom="md" px="md" style={{ borderTop: '1px solid var(--app-shell-border-color)' }}>
            <div ref={menuRef}>
              <TopMenu sections={sections} />
            </div>
          </Box>
        ) : null}
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <SideMenu sections={sections} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <ModalsProvider>
          <Outlet />
        </ModalsProvider>
      </AppShell.Main>
    </AppShell>
  );
}

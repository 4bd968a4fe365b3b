import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconLayoutGrid, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { logout } from '../../features/auth/api/logout';
import { notifyInfo } from '../../lib/notify';
import { useSession } from '../../lib/use-session';

function initials(first?: string | null, last?: string | null, email?: string | null): string {
  const value = `${first?.[0] ?? ''}${last?.[0] ?? ''}`;
  return (value || email?.[0] || '?').toUpperCase();
}

/** The user's name with profile, menu overview and log-out. */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const name = [user?.user_firstname, user?.user_lastname].filter(Boolean).join(' ') || user?.user_email || '';

  const onLogout = async () => {
    await logout();
    queryClient.clear();
    notifyInfo(t('auth.logout.done'));
  };

  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={220}>
      <Menu.Target>
        <UnstyledButton p={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap="xs" wrap="nowrap">
            <Avatar radius="xl" size={32} color="blue" aria-hidden>
              {initials(user?.user_firstname, user?.user_lastname, user?.user_email)}
            </Avatar>
            <Text fz="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {name}
            </Text>
            <VisuallyHidden>{t('layout.user_menu')}</VisuallyHidden>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.user_email}</Menu.Label>
        <Menu.Item component={Link} to="/app/user/profile" leftSection={<IconUserCircle size={16} aria-hidden />}>
          {t('layout.profile')}
        </Menu.Item>
        <Menu.Item component={Link} to="/app/menu" leftSection={<IconLayoutGrid size={16} aria-hidden />}>
          {t('layout.menu_page')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void onLogout()}>
          {t('layout.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

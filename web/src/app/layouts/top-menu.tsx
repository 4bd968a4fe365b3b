import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isComingSoon, type MenuSection } from '../menu';
import { SoonBadge } from './soon-badge';

/**
 * The horizontal menu: one drop-down per section, in the header. It wraps onto
 * a second line rather than pushing the last sections (Import,
 * Administration) off-screen; the header grows with it.
 */
export function TopMenu({ sections }: { sections: MenuSection[] }) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('layout.main_menu')} gap={2} wrap="wrap" mih={44} py={6} style={{ rowGap: 0 }}>
        {sections.map((section) => {
          const SectionIcon = section.icon;
          if (section.entries.length === 1) {
            const entry = section.entries[0];
            return (
              <Button
                key={section.id}
                component={Link}
                to={entry.to}
                variant="subtle"
                color="gray"
                size="compact-sm"
                style={{ flexShrink: 0 }}
                leftSection={<SectionIcon size={16} aria-hidden />}
                rightSection={isComingSoon(entry) ? <SoonBadge /> : undefined}
              >
                {t(entry.labelKey)}
              </Button>
            );
          }
          return (
            <Menu key={section.id} trigger="click" withinPortal shadow="md">
              <Menu.Target>
                <Button
                  variant="subtle"
                  color="gray"
                  size="compact-sm"
                  style={{ flexShrink: 0 }}
                  leftSection={<SectionIcon size={16} aria-hidden />}
                  rightSection={<IconChevronDown size={14} aria-hidden />}
                >
                  {t(section.labelKey)}
                </Button>
              </Menu.Target>
              <Menu.Dropdown mah="70vh" style={{ overflowY: 'auto' }}>
                {section.entries.map((entry) => (
                  <Menu.Item
                    key={`${section.id}-${entry.id}`}
                    component={Link}
                    to={entry.to}
                    rightSection={isComingSoon(entry) ? <SoonBadge /> : undefined}
                  >
                    {t(entry.labelKey)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          );
        })}
    </Group>
  );
}

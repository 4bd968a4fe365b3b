import { NavLink, ScrollArea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { isComingSoon, type MenuSection } from '../menu';
import { SoonBadge } from './soon-badge';

function isActive(pathname: string, search: string, to: string): boolean {
  const [path, query] = to.split('?');
  if (query) return pathname === path && search.includes(query);
  if (path === '/app') return pathname === '/app';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The vertical menu: one collapsible block per section. */
export function SideMenu({ sections, onNavigate }: { sections: MenuSection[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <nav aria-label={t('layout.main_menu')}>
        {sections.map((section) => {
          const SectionIcon = section.icon;
          const activeSection = section.entries.some((entry) => isActive(pathname, search, entry.to));
          if (section.entries.length === 1) {
            const entry = section.entries[0];
            return (
              <NavLink
                key={section.id}
                component={Link}
                to={entry.to}
                label={t(entry.labelKey)}
                leftSection={<SectionIcon size={18} stroke={1.6} aria-hidden />}
                rightSection={isComingSoon(entry) ? <SoonBadge /> : undefined}
                active={activeSection}
                onClick={onNavigate}
                variant="light"
              />
            );
          }
          return (
            <NavLink
              key={section.id}
              label={t(section.labelKey)}
              leftSection={<SectionIcon size={18} stroke={1.6} aria-hidden />}
              defaultOpened={activeSection}
              childrenOffset={28}
              variant="subtle"
            >
              {section.entries.map((entry) => (
                <NavLink
                  key={`${section.id}-${entry.id}`}
                  component={Link}
                  to={entry.to}
                  label={t(entry.labelKey)}
                  rightSection={isComingSoon(entry) ? <SoonBadge /> : undefined}
                  active={isActive(pathname, search, entry.to)}
                  onClick={onNavigate}
                  variant="light"
                />
              ))}
            </NavLink>
          );
        })}
      </nav>
    </ScrollArea>
  );
}

import { ActionIcon, Button, Kbd, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAbility } from '../../lib/ability-context';
import { isComingSoon, searchableScreens } from '../menu';
import { matchesSearch } from '../menu-search-text';
import classes from './menu-search.module.css';
import { SoonBadge } from './soon-badge';

/** Results shown at most. */
const MAX_RESULTS = 12;

/**
 * The menu search: a button in the header and Ctrl+K (⌘K on a Mac) open it;
 * typing finds any screen the user may open (menu entries and master-data
 * screens) by its name or its section's; arrows choose, Enter opens.
 */
export function MenuSearch() {
  const { t } = useTranslation();
  const ability = useAbility();
  const navigate = useNavigate();
  const os = useOs();
  const [opened, { open, close }] = useDisclosure(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  useHotkeys([['mod+K', open]], []);

  const screens = useMemo(
    () =>
      searchableScreens(ability).map(({ entry, sectionKey }) => ({
        entry,
        label: t(entry.labelKey),
        section: t(sectionKey),
      })),
    [ability, t],
  );
  const results = screens.filter((s) => matchesSearch(`${s.label} ${s.section}`, search)).slice(0, MAX_RESULTS);
  const current = Math.min(active, Math.max(0, results.length - 1));

  const finish = () => {
    close();
    setSearch('');
    setActive(0);
  };
  const go = (to: string) => {
    finish();
    navigate(to);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((current + 1) % Math.max(1, results.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current - 1 + results.length) % Math.max(1, results.length));
    } else if (event.key === 'Enter' && results[current]) {
      event.preventDefault();
      go(results[current].entry.to);
    }
  };
  const shortcut = os === 'macos' ? '⌘ K' : 'Ctrl K';

  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        leftSection={<IconSearch size={14} aria-hidden />}
        rightSection={<Kbd size="xs" visibleFrom="md">{shortcut}</Kbd>}
        onClick={open}
        aria-keyshortcuts="Control+K Meta+K"
        visibleFrom="sm"
      >
        {t('menu_search.open')}
      </Button>
      {/* A phone shows the magnifier only: the header's buttons need the room. */}
      <ActionIcon variant="default" size="lg" onClick={open} aria-label={t('menu_search.open')} hiddenFrom="sm">
        <IconSearch size={16} aria-hidden />
      </ActionIcon>
      <Modal opened={opened} onClose={finish} title={t('menu_search.title')} size="lg">
        <Stack gap="xs">
          <TextInput
            data-autofocus
            leftSection={<IconSearch size={16} aria-hidden />}
            placeholder={t('menu_search.placeholder')}
            aria-label={t('menu_search.placeholder')}
            role="combobox"
            aria-expanded={results.length > 0}
            aria-controls={listId}
            aria-activedescendant={results[current] ? `${listId}-${current}` : undefined}
            aria-autocomplete="list"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          {results.length === 0 ? (
            <Text c="dimmed" size="sm" role="status">
              {t('menu_search.nothing_found')}
            </Text>
          ) : (
            <ul id={listId} role="listbox" aria-label={t('menu_search.results')} className={classes.list}>
              {results.map((r, i) => (
                <li key={r.entry.to} id={`${listId}-${i}`} role="option" aria-selected={i === current}>
                  <UnstyledButton
                    className={classes.item}
                    data-active={i === current || undefined}
                    tabIndex={-1}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => go(r.entry.to)}
                  >
                    <Text span fw={500}>
                      {r.label} {isComingSoon(r.entry) && <SoonBadge />}
                    </Text>
                    <Text span c="dimmed" size="sm">
                      {r.section}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </ul>
          )}
        </Stack>
      </Modal>
    </>
  );
}

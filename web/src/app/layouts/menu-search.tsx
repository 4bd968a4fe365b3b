import { ActionIcon, Button, Kbd, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { searchesRecords, useRecordSearch } from '../../features/search/api/search-records';
import { listLink, recordLink, searchableEntities } from '../../features/search/model/record-links';
import { useAbility } from '../../lib/ability-context';
import { isComingSoon, searchableScreens } from '../menu';
import { matchesSearch } from '../menu-search-text';
import classes from './menu-search.module.css';
import { SoonBadge } from './soon-badge';

/** Screens shown at most. */
const MAX_RESULTS = 12;

/** How long typing rests before the records are searched. */
export const RECORD_SEARCH_DEBOUNCE_MS = 200;

/** One choice of the results: where it leads and how it reads. */
interface Choice {
  key: string;
  to: string;
  label: ReactNode;
  aside?: ReactNode;
}

/** A titled group of choices: the screens, or the records of one entity. */
interface Section {
  id: string;
  title: string;
  choices: Choice[];
}

/**
 * The header search: a button in the header and Ctrl+K (⌘K on a Mac) open
 * it; typing finds any screen the user may open (menu entries and
 * master-data screens) by its name or its section's, and, after a short
 * rest, the records (points of sale, contracts, invoices, tickets) the user
 * may list, up to five of each, grouped by entity (GET /search/records:
 * the lists' keyword search, decision 0069); arrows choose, Enter opens.
 */
export function MenuSearch() {
  const { t } = useTranslation();
  const ability = useAbility();
  const navigate = useNavigate();
  const os = useOs();
  const [opened, { open, close }] = useDisclosure(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, RECORD_SEARCH_DEBOUNCE_MS);
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
  const entities = useMemo(() => searchableEntities(ability), [ability]);
  const word = debounced.trim();
  const searching = opened && entities.length > 0 && searchesRecords(search) && searchesRecords(word);
  const records = useRecordSearch(opened ? word : '', entities);
  const groups = searching ? (records.data?.groups ?? []) : [];
  const loading = searching && (records.isFetching || word !== search.trim());

  const sections: Section[] = [];
  const shown = screens.filter((s) => matchesSearch(`${s.label} ${s.section}`, search)).slice(0, MAX_RESULTS);
  if (shown.length > 0) {
    sections.push({
      id: 'screens',
      title: t('menu_search.results'),
      choices: shown.map((s) => ({
        key: `screen:${s.entry.to}`,
        to: s.entry.to,
        label: (
          <>
            {s.label} {isComingSoon(s.entry) && <SoonBadge />}
          </>
        ),
        aside: s.section,
      })),
    });
  }
  for (const g of groups) {
    const choices: Choice[] = g.hits.map((h) => ({
      key: `${g.entity}:${h.id}`,
      to: recordLink(g.entity, h, ability),
      label: h.label,
      aside: h.detail,
    }));
    if (g.has_more) {
      choices.push({ key: `${g.entity}:all`, to: listLink(g.entity, word), label: t('menu_search.show_all'), aside: t(`table.${g.entity}`) });
    }
    sections.push({ id: g.entity, title: t(`table.${g.entity}`), choices });
  }
  const choices = sections.flatMap((s) => s.choices);
  const current = Math.min(active, Math.max(0, choices.length - 1));
  const optionId = (i: number) => `${listId}-${i}`;

  // The chosen one stays in sight while the arrows walk a long list.
  useEffect(() => {
    if (opened) document.getElementById(`${listId}-${current}`)?.scrollIntoView({ block: 'nearest' });
  }, [current, opened, listId]);

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
      setActive((current + 1) % Math.max(1, choices.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current - 1 + choices.length) % Math.max(1, choices.length));
    } else if (event.key === 'Enter' && choices[current]) {
      event.preventDefault();
      go(choices[current].to);
    }
  };
  const shortcut = os === 'macos' ? '⌘ K' : 'Ctrl K';
  // Nothing found: no screen (the word is no record search), or no record once the search answered.
  let nothing: string | null = null;
  if (!searching && choices.length === 0) nothing = t('menu_search.nothing_found');
  else if (searching && !loading && records.isError) nothing = t('general.error');
  else if (searching && !loading && groups.length === 0) nothing = t('menu_search.no_records');

  let index = 0;
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
      <Modal
        opened={opened}
        onClose={finish}
        title={t(entities.length > 0 ? 'menu_search.title_records' : 'menu_search.title')}
        size="lg"
        closeButtonProps={{ 'aria-label': t('menu_search.close') }}
      >
        <Stack gap="xs">
          <TextInput
            data-autofocus
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={loading ? <Loader size="xs" aria-label={t('menu_search.records_loading')} /> : null}
            placeholder={t(entities.length > 0 ? 'menu_search.placeholder_records' : 'menu_search.placeholder')}
            aria-label={t(entities.length > 0 ? 'menu_search.placeholder_records' : 'menu_search.placeholder')}
            role="combobox"
            aria-expanded={choices.length > 0}
            aria-controls={listId}
            aria-activedescendant={choices[current] ? optionId(current) : undefined}
            aria-autocomplete="list"
            aria-busy={loading || undefined}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          {choices.length > 0 && (
            <div id={listId} role="listbox" aria-label={t('menu_search.found')}>
              {sections.map((section) => (
                <ul key={section.id} role="group" aria-labelledby={`${listId}-${section.id}`} className={classes.list}>
                  <li role="presentation" id={`${listId}-${section.id}`} className={classes.heading}>
                    {section.title}
                  </li>
                  {section.choices.map((choice) => {
                    const i = index++;
                    return (
                      // The option itself takes the pointer: the focus stays in the field (aria-activedescendant).
                      <li
                        key={choice.key}
                        id={optionId(i)}
                        role="option"
                        aria-selected={i === current}
                        className={classes.item}
                        data-active={i === current || undefined}
                        onMouseEnter={() => setActive(i)}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => go(choice.to)}
                      >
                        <Text span fw={500}>
                          {choice.label}
                        </Text>
                        {choice.aside && (
                          <Text span c="dimmed" size="sm">
                            {choice.aside}
                          </Text>
                        )}
                      </li>
                    );
                  })}
                </ul>
              ))}
            </div>
          )}
          {loading && groups.length === 0 && (
            <Text c="dimmed" size="sm" role="status">
              {t('menu_search.records_loading')}
            </Text>
          )}
          {nothing && (
            <Text c="dimmed" size="sm" role="status">
              {nothing}
            </Text>
          )}
        </Stack>
      </Modal>
    </>
  );
}

import { Button, Group, Menu, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconBookmark, IconCheck, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../../lib/ability-context';
import { useSession } from '../../../lib/use-session';
import type { FilterCondition } from '../../../lib/data-provider';
import type { ListState } from '../../../lib/list-state';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteView } from '../api/delete-view';
import { useViews } from '../api/list-views';
import { useSaveView } from '../api/save-view';
import type { SavedView, ViewSharing } from '../api/saved-view';
import { activeView } from './active-view';
import { toastError } from './table-errors';

export interface SavedViewsMenuProps {
  table: string;
  state: ListState;
  onApply: (patch: Partial<ListState>) => void;
}

/** Saved views above the grid: apply, save the current one, delete own views. */
export function SavedViewsMenu({ table, state, onApply }: SavedViewsMenuProps) {
  const { t } = useTranslation();
  const ability = useAbility();
  const { user } = useSession();
  const views = useViews(table);
  const save = useSaveView();
  const remove = useDeleteView();
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState<ViewSharing>('private');
  // Only administrators may share views for now.
  const mayShare = ability.can('share', 'savedview') || ability.can('manage', 'all');

  const apply = (view: SavedView) => {
    const s = view.settings ?? {};
    onApply({
      filters: (s.filter ?? []).filter((f): f is FilterCondition => typeof f === 'object' && f !== null && 'field' in f),
      search: s.filter_all ?? '',
      sort: s.order_by ? { field: s.order_by, dir: s.order_dir === 'DESC' ? 'DESC' : 'ASC' } : null,
      columns: s.columns?.length ? s.columns : null,
      perPage: s.per_page || state.perPage,
    });
  };

  const submit = () => {
    const view: SavedView = {
      name: name.trim(),
      entity: table,
      shared,
      role_id: shared === 'role' ? (user?.roles?.[0]?.role_id ?? null) : null,
      settings: {
        filter: state.filters,
        filter_all: state.search,
        order_by: state.sort?.field ?? '',
        order_dir: state.sort?.dir ?? 'ASC',
        columns: state.columns ?? [],
        per_page: state.perPage,
      },
    };
    save.mutate(view, {
      onSuccess: () => {
        notifySuccess(t('views.saved', { name: view.name }));
        setSaving(false);
        setName('');
      },
      onError: toastError,
    });
  };

  const list = views.data ?? [];
  const active = activeView(list, state);
  return (
    <>
      <Menu position="bottom-end" withinPortal width={260}>
        <Menu.Target>
          <Button
            variant={active ? 'light' : 'default'}
            leftSection={<IconBookmark size={16} />}
            data-testid="saved-views"
            maw={260}
          >
            {active ? t('views.active', { name: active.name }) : t('views.title')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {views.isError && <Menu.Label>{t('views.unavailable')}</Menu.Label>}
          {!views.isError && list.length === 0 && <Menu.Label>{t('views.none')}</Menu.Label>}
          {list.map((view) => (
            <Menu.Item
              key={view.savedview_id}
              onClick={() => apply(view)}
              aria-current={view === active ? 'true' : undefined}
              leftSection={<IconCheck size={14} style={{ visibility: view === active ? 'visible' : 'hidden' }} />}
              bg={view === active ? 'var(--mantine-primary-color-light)' : undefined}
              rightSection={
                view.mine !== false ? (
                  <IconTrash
                    size={14}
                    aria-label={t('views.delete', { name: view.name })}
                    onClick={(e) => {
                      e.stopPropagation();
                      remove.mutate(view, { onError: toastError });
                    }}
                  />
                ) : undefined
              }
            >
              <Text size="sm">{view.name}</Text>
              {view.shared !== 'private' && (
                <Text size="xs" c="dimmed">
                  {view.shared === 'role' ? t('views.shared_role') : t('views.shared_all')}
                </Text>
              )}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconDeviceFloppy size={14} />} onClick={() => setSaving(true)}>
            {t('views.save_current')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={saving} onClose={() => setSaving(false)} title={t('views.save_current')} centered>
        <Stack>
          <TextInput label={t('views.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} required data-autofocus />
          {mayShare && (
            <SegmentedControl
              value={shared}
              onChange={(v) => setShared(v as ViewSharing)}
              data={[
                { value: 'private', label: t('views.shared_personal') },
                { value: 'role', label: t('views.shared_role') },
                { value: 'all', label: t('views.shared_all') },
              ]}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSaving(false)}>
              {t('form.cancel')}
            </Button>
            <Button onClick={submit} disabled={name.trim() === ''} loading={save.isPending}>
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

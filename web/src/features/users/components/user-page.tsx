import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Loader, Menu, Stack, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconChevronDown, IconEdit, IconKey, IconLock, IconLockOpen, IconLogout } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { RelationDefinition, Row, TableDefinition } from '../../../lib/table-definition';
import { type AdminAction, useAdministerUser } from '../api/administer-user';
import { useEntityDefinition } from '../api/get-definition';
import { useUser } from '../api/get-user';
import { UserEditor } from './user-editor';

/** The relation tabs the app plugs in below the form (customer groups, companies, points of sale). */
export type RelationTabsSlot = ComponentType<{ table: string; id: string; def: TableDefinition; relations: RelationDefinition[] }>;

/** The user's dated relations shown below the form (specification: each with valid_from and valid_to). */
export const USER_RELATIONS = ['customergroups', 'companies', 'pos'];

interface ActionSpec {
  action: AdminAction;
  icon: ReactNode;
  danger?: boolean;
}

/** The administrator actions offered for a user: lock or unlock, forced reset, ending sessions. */
export function adminActionsFor(row: Row): ActionSpec[] {
  const locked = Number(row.user_locked) === 1;
  return [
    locked ? { action: 'unlock', icon: <IconLockOpen size={16} /> } : { action: 'lock', icon: <IconLock size={16} />, danger: true },
    { action: 'force-password-reset', icon: <IconKey size={16} /> },
    { action: 'end-sessions', icon: <IconLogout size={16} />, danger: true },
  ];
}

/** Translation key stem of an action: users.action_lock, users.confirm_lock, … */
const stem = (action: AdminAction) => action.replaceAll('-', '_');

/**
 * /app/table/user/view/{id} (edit with ?edit=true): the custom user page with
 * the administrator actions, each behind a confirmation.
 */
export default function UserPage({ relationTabs: RelationTabs }: { relationTabs?: RelationTabsSlot }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const ability = useAbility();
  const definition = useEntityDefinition('user');
  const user = useUser(id);
  const administer = useAdministerUser();
  const editing = search.get('edit') === 'true';
  const canUpdate = ability.can('update', 'user');
  const canManage = ability.can('manage', 'user');

  if (definition.isPending || user.isPending) return <Loader m="xl" aria-label={t('general.loading')} />;
  if (definition.isError || user.isError) {
    const error = definition.error ?? user.error;
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <Alert color={notFound ? 'yellow' : 'red'} title={notFound ? t('grid.record_not_found') : t('grid.load_failed')} m="md">
        {notFound ? null : errorMessage(error)}
      </Alert>
    );
  }
  const row = user.data;
  const def = definition.data;
  const name = `${String(row.user_firstname ?? '')} ${String(row.user_lastname ?? '')}`.trim() || `#${id}`;
  const locked = Number(row.user_locked) === 1;
  const setEdit = (on: boolean) =>
    setSearch((p) => {
      const next = new URLSearchParams(p);
      if (on) next.set('edit', 'true');
      else next.delete('edit');
      return next;
    });

  const confirm = (action: AdminAction) =>
    modals.openConfirmModal({
      title: t(`users.action_${stem(action)}`),
      children: t(`users.confirm_${stem(action)}`, { name }),
      labels: { confirm: t(`users.action_${stem(action)}`), cancel: t('form.cancel') },
      confirmProps: { color: action === 'unlock' || action === 'force-password-reset' ? undefined : 'red', 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        administer.mutate(
          { id, action },
          {
            onSuccess: (answer) => notifySuccess(answer.detail || t('users.action_done')),
            onError: (error) => {
              if (!(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
            },
          },
        ),
    });

  const relations = (def.relations ?? []).filter((r) => USER_RELATIONS.includes(r.name));

  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Breadcrumbs>
            <Anchor component={Link} to="/app/table/user" size="sm">
              {t('table.user')}
            </Anchor>
            <span>{name}</span>
          </Breadcrumbs>
          <Group gap="xs">
            <Title order={1} size="h2">
              {name}
            </Title>
            <Badge variant="light" color={Number(row.usertype_id) === 1 ? 'blue' : 'grape'}>
              {Number(row.usertype_id) === 1 ? t('users.internal') : t('users.external')}
            </Badge>
            {locked && (
              <Badge color="red" variant="filled" leftSection={<IconLock size={12} />}>
                {t('users.locked')}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to="/app/table/user">
            {t('form.back_to_list')}
          </Button>
          {!editing && canUpdate && (
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEdit(true)}>
              {t('form.edit')}
            </Button>
          )}
          {canManage && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="light" rightSection={<IconChevronDown size={14} />} loading={administer.isPending}>
                  {t('users.admin_actions')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {adminActionsFor(row).map((a) => (
                  <Menu.Item key={a.action} leftSection={a.icon} color={a.danger ? 'red' : undefined} onClick={() => confirm(a.action)}>
                    {t(`users.action_${stem(a.action)}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <UserEditor
        key={`${editing}-${String(row.row_version ?? '')}`}
        def={def}
        mode={editing ? 'update' : 'view'}
        row={row}
        onCancel={() => setEdit(false)}
        onSaved={() => setEdit(false)}
        onReload={() => void user.refetch()}
      />
      {RelationTabs && relations.length > 0 && <RelationTabs table="user" id={id} def={def} relations={relations} />}
    </Stack>
  );
}

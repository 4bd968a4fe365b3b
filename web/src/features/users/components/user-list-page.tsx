import { Alert, Badge, Button, Group, Loader, Modal, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../../components/data-table/data-table';
import { ListHeading } from '../../../components/data-table/list-heading';
import { useAbility } from '../../../lib/ability-context';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import type { Row } from '../../../lib/table-definition';
import { useEntityDefinition } from '../api/get-definition';
import { type UserListParams, useUsers } from '../api/list-users';
import { decodeUserList, encodeUserList, USER_PAGE_SIZES } from '../model/list-state';
import { UserEditor } from './user-editor';

/** Search starts at this many characters, this long after typing stops. */
const SEARCH_MIN = 2;
const SEARCH_DEBOUNCE_MS = 500;

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));


/**
 * /app/table/user: the custom user list over GET /users (page, per_page,
 * keyword, order); /app/table/user/create opens the creation modal over it.
 */
export default function UserListPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const ability = useAbility();
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => decodeUserList(query), [query]);
  const setParams = (change: (p: UserListParams) => UserListParams) => setQuery(encodeUserList(change(params)), { replace: true });
  const [search, setSearch] = useState(params.keyword);
  const list = useUsers(params);
  const definition = useEntityDefinition('user');
  const creating = location.pathname.endsWith('/create');
  const canCreate = ability.can('create', 'user');

  const commitSearch = useDebouncedCallback((value: string) => {
    const keyword = value.trim();
    if (keyword.length >= SEARCH_MIN || keyword.length === 0) setParams((p) => ({ ...p, keyword, page: 1 }));
  }, SEARCH_DEBOUNCE_MS);

  const columns = useMemo<DataTableColumn[]>(
    () => [
      {
        id: 'name',
        header: t('users.name'),
        text: (r) => `${text(r.user_firstname)} ${text(r.user_lastname)}`.trim(),
        width: 220,
        sortable: true,
      },
      { id: 'user_email', header: t('users.email'), text: (r) => text(r.user_email), width: 260 },
      {
        id: 'usertype',
        header: t('users.type'),
        text: (r) => (Number(r.usertype_id) === 1 ? t('users.internal') : t('users.external')),
        render: (r, value) => (
          <Badge variant="light" color={Number(r.usertype_id) === 1 ? 'blue' : 'grape'} size="sm">
            {value}
          </Badge>
        ),
        width: 120,
      },
      {
        id: 'organisation',
        header: t('users.organisation'),
        text: (r) => text(r.company_id__label ?? r.partnergroup_id__label ?? r.customergroup_id__label),
        width: 240,
      },
      {
        id: 'status',
        header: t('users.status'),
        text: (r) => (Number(r.user_locked) === 1 ? t('users.locked') : t('users.active')),
        render: (r, value) => (
          <Badge variant="dot" color={Number(r.user_locked) === 1 ? 'red' : 'teal'} size="sm">
            {value}
          </Badge>
        ),
        width: 120,
      },
      {
        id: 'user_last_login_time',
        header: t('users.last_login'),
        text: (r) => (r.user_last_login_time ? formatDate(String(r.user_last_login_time), i18n.language) : '—'),
        width: 170,
      },
    ],
    [t, i18n.language],
  );

  const page = list.data;
  const rows = page?.data ?? [];
  const pagination = page?.links.pagination;
  const sort: DataTableSort = { field: 'name', dir: params.order === 'desc' ? 'DESC' : 'ASC' };
  const closeModal = () => navigate({ pathname: '/app/table/user', search: location.search }, { replace: true });

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <ListHeading title={t('table.user')} total={pagination?.total} />
        {canCreate && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => navigate({ pathname: '/app/table/user/create', search: location.search })}>
            {t('users.new_user')}
          </Button>
        )}
      </Group>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('grid.search_placeholder')}
        aria-label={t('grid.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          commitSearch(e.currentTarget.value);
        }}
        w={320}
      />
      {list.isError && !page ? (
        <Alert color="red" title={t('grid.load_failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(list.error)}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => list.refetch()}>
              {t('general.reload')}
            </Button>
          </Stack>
        </Alert>
      ) : !page ? (
        <Group justify="center" p="xl">
          <Loader />
        </Group>
      ) : rows.length === 0 ? (
        <Text fw={500} ta="center" p="xl" data-testid="empty-state">
          {params.keyword ? t('grid.empty_filtered') : t('grid.empty', { entity: t('table.user') })}
        </Text>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r: Row) => String(r.user_id)}
          label={t('table.user')}
          sort={sort}
          onSortChange={(next) => setParams((p) => ({ ...p, order: next?.dir === 'DESC' ? 'desc' : 'asc', page: 1 }))}
          onOpen={(r) => navigate(`/app/table/user/view/${String(r.user_id)}`)}
          height="calc(100dvh - 290px)"
          busy={list.isFetching}
          sortLabels={{ asc: t('grid.sort_asc'), desc: t('grid.sort_desc'), none: t('grid.sort_none') }}
        />
      )}
      <Group justify="flex-end" gap="xs">
        <Select
          aria-label={t('grid.page_size')}
          data={USER_PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          value={String(params.perPage)}
          onChange={(v) => v && setParams((p) => ({ ...p, perPage: Number(v), page: 1 }))}
          allowDeselect={false}
          w={100}
        />
        <Pagination
          total={pagination?.last_page ?? 1}
          value={params.page}
          onChange={(next) => setParams((p) => ({ ...p, page: next }))}
          size="sm"
          siblings={1}
          getControlProps={(control) => ({ 'aria-label': t(`grid.page_${control}`) })}
        />
      </Group>
      <Modal
        opened={creating && canCreate}
        onClose={closeModal}
        title={t('users.new_user')}
        size="xl"
        closeOnClickOutside={false}
      >
        {definition.isPending ? (
          <Loader />
        ) : definition.isError ? (
          <Alert color="red">{errorMessage(definition.error)}</Alert>
        ) : (
          <UserEditor
            def={definition.data}
            mode="create"
            onCancel={closeModal}
            onSaved={(id) => navigate(`/app/table/user/view/${id}`, { replace: true })}
          />
        )}
      </Modal>
    </Stack>
  );
}

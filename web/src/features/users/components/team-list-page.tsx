import { Alert, Badge, Button, Group, Loader, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { modals } from '@mantine/modals';
import { IconPlus, IconRefresh, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { RemoteSelect } from '../../../components/form/remote-select';
import { ListHeading } from '../../../components/data-table/list-heading';
import { useAbility } from '../../../lib/ability-context';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { Row } from '../../../lib/table-definition';
import { useDeleteTeams } from '../api/delete-teams';
import { getLabels } from '../api/get-labels';
import { userKeys } from '../api/keys';
import { useEntityDefinition } from '../api/get-definition';
import { useCompanyTeams } from '../api/list-company-teams';
import { type TeamListParams, useTeams } from '../api/list-teams';
import { decodeTeamList, encodeTeamList } from '../model/list-state';

const COMPANY_REF = { table: 'company', key: 'company_id', label: ['company_name'] };

/** /app/table/team: GET /teams, 30 per page, optionally the teams available to one company. */
export default function TeamListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => decodeTeamList(query), [query]);
  const setParams = (change: (p: TeamListParams) => TeamListParams) => setQuery(encodeTeamList(change(params)), { replace: true });
  const [search, setSearch] = useState(params.keyword);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const list = useTeams(params);
  const definition = useEntityDefinition('team');
  const remove = useDeleteTeams();
  // The filter's company named when the list is opened from a bookmark.
  const companyLabel = useQuery({
    queryKey: userKeys.labels('company', params.companyId ? [params.companyId] : []),
    queryFn: ({ signal }) => getLabels('company', 'company_id', COMPANY_REF.label, [params.companyId!], signal),
    enabled: params.companyId !== null,
    staleTime: 60_000,
  });
  const canCreate = ability.can('create', 'team');
  const canRemove = ability.can('remove', 'team');

  const commitSearch = useDebouncedCallback((value: string) => {
    const keyword = value.trim();
    if (keyword.length >= 2 || keyword.length === 0) setParams((p) => ({ ...p, keyword, page: 1 }));
  }, 500);

  const typeLabels = useMemo(() => {
    const attr = definition.data?.attributes.find((a) => a.attribute === 'team_type');
    return new Map((attr?.options ?? []).map((o) => [String(o.value), o.label]));
  }, [definition.data]);

  const rows = list.data?.data ?? [];
  const allTeams = useCompanyTeams(null);
  const names = useMemo(() => new Map((allTeams.data ?? rows).map((r) => [r.team_id, r.team_name])), [allTeams.data, rows]);
  const columns = useMemo<DataTableColumn[]>(
    () => [
      { id: 'team_name', header: t('teams.name'), text: (r) => String(r.team_name ?? ''), width: 220, sortable: true },
      {
        id: 'team_type',
        header: t('teams.type'),
        text: (r) => typeLabels.get(String(r.team_type)) ?? String(r.team_type ?? ''),
        render: (r, value) => (
          <Badge variant="light" size="sm" color={r.team_type === 'intern' ? 'blue' : r.team_type === 'extern_partner' ? 'orange' : 'grape'}>
            {value}
          </Badge>
        ),
        width: 160,
      },
      {
        id: 'parent_id',
        header: t('teams.parent'),
        text: (r) => (r.parent_id ? (names.get(Number(r.parent_id)) ?? `#${String(r.parent_id)}`) : '—'),
        width: 160,
      },
      {
        id: 'team_for_all_customer',
        header: t('teams.for_all_customers'),
        text: (r) => (Number(r.team_for_all_customer) === 1 ? t('grid.yes') : t('grid.no')),
        width: 180,
      },
      { id: 'team_description', header: t('teams.description'), text: (r) => String(r.team_description ?? ''), width: 320 },
    ],
    [t, typeLabels, names],
  );

  const pagination = list.data?.links.pagination;
  const deleteSelected = () =>
    modals.openConfirmModal({
      title: t('grid.delete_title'),
      children: t('teams.delete_confirm', { count: selection.size }),
      labels: { confirm: t('grid.delete'), cancel: t('form.cancel') },
      confirmProps: { color: 'red', 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        remove.mutate([...selection].map(Number), {
          onSuccess: (answer) => {
            notifySuccess(answer.detail || t('teams.deleted'));
            setSelection(new Set());
          },
          onError: (error) => {
            if (!(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
          },
        }),
    });

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <ListHeading title={t('table.team')} total={pagination?.total} />
        <Group gap="xs">
          {canRemove && selection.size > 0 && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={deleteSelected} loading={remove.isPending}>
              {t('grid.delete_selected', { count: selection.size })}
            </Button>
          )}
          {canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => navigate('/app/table/team/create')}>
              {t('teams.new_team')}
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="xs" wrap="wrap" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('grid.search_placeholder')}
          aria-label={t('grid.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            commitSearch(e.currentTarget.value);
          }}
          w={280}
        />
        <RemoteSelect
          refDef={COMPANY_REF}
          aria-label={t('teams.company_filter')}
          placeholder={t('teams.company_filter')}
          value={params.companyId}
          knownLabels={companyLabel.data}
          onChange={(v) => setParams((p) => ({ ...p, companyId: typeof v === 'number' ? v : null, page: 1 }))}
          nothingFound={t('form.not_available', { field: t('teams.company_filter') })}
          w={280}
        />
      </Group>
      {list.isError && !list.data ? (
        <Alert color="red" title={t('grid.load_failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(list.error)}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => list.refetch()}>
              {t('general.reload')}
            </Button>
          </Stack>
        </Alert>
      ) : !list.data ? (
        <Group justify="center" p="xl">
          <Loader />
        </Group>
      ) : rows.length === 0 ? (
        <Text fw={500} ta="center" p="xl" data-testid="empty-state">
          {params.keyword || params.companyId ? t('grid.empty_filtered') : t('grid.empty', { entity: t('table.team') })}
        </Text>
      ) : (
        <DataTable
          rows={rows as unknown as Row[]}
          columns={columns}
          rowKey={(r) => String(r.team_id)}
          label={t('table.team')}
          sort={{ field: 'team_name', dir: params.order === 'desc' ? 'DESC' : 'ASC' }}
          onSortChange={(next) => setParams((p) => ({ ...p, order: next?.dir === 'DESC' ? 'desc' : 'asc', page: 1 }))}
          onOpen={(r) => navigate(`/app/table/team/view/${String(r.team_id)}`)}
          selection={canRemove ? selection : undefined}
          onSelectionChange={canRemove ? setSelection : undefined}
          height={Math.min(40 + rows.length * 36, 1120)}
          busy={list.isFetching}
          sortLabels={{ asc: t('grid.sort_asc'), desc: t('grid.sort_desc'), none: t('grid.sort_none') }}
          selectAllLabel={t('grid.select_all')}
          selectRowLabel={t('grid.select_row')}
        />
      )}
      <Group justify="flex-end">
        <Pagination
          total={pagination?.last_page ?? 1}
          value={params.page}
          onChange={(next) => setParams((p) => ({ ...p, page: next }))}
          size="sm"
          siblings={1}
          getControlProps={(control) => ({ 'aria-label': t(`grid.page_${control}`) })}
        />
      </Group>
    </Stack>
  );
}

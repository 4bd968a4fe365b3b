import '@mantine/dates/styles.css';
import { ActionIcon, Alert, Anchor, Breadcrumbs, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconEdit, IconPencil, IconTrash, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { DateTextInput } from '../../../components/form/date-text-input';
import { RecordForm } from '../../../components/form/record-form';
import { RemoteSelect } from '../../../components/form/remote-select';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { useRecordForm } from '../../../components/form/use-record-form';
import { useAbility } from '../../../lib/ability-context';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { TableDefinition } from '../../../lib/table-definition';
import { UnparsedInput } from '../../../lib/validation';
import { useDeleteTeams } from '../api/delete-teams';
import { useEntityDefinition } from '../api/get-definition';
import { useMissingLabels } from '../api/get-labels';
import { useTeam } from '../api/get-team';
import { useSaveTeam } from '../api/save-team';
import { type MembershipInput, useRemoveMembership, useSetMembership } from '../api/team-membership';
import { endsBeforeStart, type Team, type TeamMember, teamAttributes, teamFormRow, teamPayload } from '../model/team-form';

const USER_REF = { table: 'user', key: 'user_id', label: ['user_firstname', 'user_lastname'] };

function toastUnlessShown(error: unknown) {
  if (!(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
}

/** /app/table/team/view/{id} (edit with ?edit=true) and /app/table/team/create. */
export default function TeamPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const definition = useEntityDefinition('team');
  if (definition.isPending) return <Loader m="xl" aria-label={t('general.loading')} />;
  if (definition.isError) return <Alert color="red">{errorMessage(definition.error)}</Alert>;
  return id ? <ExistingTeam key={id} id={id} def={definition.data} /> : <NewTeam def={definition.data} />;
}

function Header({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Breadcrumbs>
        <Anchor component={Link} to="/app/table/team" size="sm">
          {t('table.team')}
        </Anchor>
        <span>{title}</span>
      </Breadcrumbs>
      <Title order={1} size="h2">
        {title}
      </Title>
    </Stack>
  );
}

function NewTeam({ def }: { def: TableDefinition }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md" maw={1100}>
      <Header title={t('teams.new_team')} />
      <Paper withBorder p="lg" radius="md">
        <TeamEditor
          def={def}
          mode="create"
          onCancel={() => navigate('/app/table/team')}
          onSaved={(id) => navigate(`/app/table/team/view/${id}`, { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

function ExistingTeam({ id, def }: { id: string; def: TableDefinition }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const [search, setSearch] = useSearchParams();
  const team = useTeam(id);
  const remove = useDeleteTeams();
  const editing = search.get('edit') === 'true';
  const canUpdate = ability.can('update', 'team');
  const canRemove = ability.can('remove', 'team');
  if (team.isPending) return <Loader m="xl" aria-label={t('general.loading')} />;
  if (team.isError) {
    const notFound = team.error instanceof ApiError && team.error.status === 404;
    return (
      <Alert color={notFound ? 'yellow' : 'red'} title={notFound ? t('grid.record_not_found') : t('grid.load_failed')} m="md">
        {notFound ? null : errorMessage(team.error)}
      </Alert>
    );
  }
  const setEdit = (on: boolean) =>
    setSearch((p) => {
      const next = new URLSearchParams(p);
      if (on) next.set('edit', 'true');
      else next.delete('edit');
      return next;
    });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('grid.delete_title'),
      children: t('form.delete_confirm', { name: team.data.team_name }),
      labels: { confirm: t('grid.delete'), cancel: t('form.cancel') },
      confirmProps: { color: 'red', 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        remove.mutate([Number(id)], {
          onSuccess: (answer) => {
            notifySuccess(answer.detail || t('teams.deleted'));
            navigate('/app/table/team', { replace: true });
          },
          onError: toastUnlessShown,
        }),
    });
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Header title={team.data.team_name} />
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to="/app/table/team">
            {t('form.back_to_list')}
          </Button>
          {!editing && canUpdate && (
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEdit(true)}>
              {t('form.edit')}
            </Button>
          )}
          {canRemove && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={confirmDelete} loading={remove.isPending}>
              {t('grid.delete')}
            </Button>
          )}
        </Group>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <TeamEditor
          key={`${editing}-${JSON.stringify(teamFormRow(team.data))}`}
          def={def}
          mode={editing ? 'update' : 'view'}
          team={team.data}
          onCancel={() => setEdit(false)}
          onSaved={() => setEdit(false)}
        />
      </Paper>
      <Members team={team.data} canUpdate={canUpdate} />
    </Stack>
  );
}

/** The team form over the served definition plus the team's roles; POST or PUT /teams. */
function TeamEditor({
  def,
  mode,
  team,
  onSaved,
  onCancel,
}: {
  def: TableDefinition;
  mode: 'create' | 'update' | 'view';
  team?: Team;
  onSaved: (id: number) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const attrs = useMemo(() => teamAttributes(def.attributes, t('teams.roles')), [def.attributes, t]);
  const row = useMemo(() => (team ? teamFormRow(team) : null), [team]);
  const form = useRecordForm(attrs, mode, row);
  const labels = useMissingLabels(attrs, row);
  const labelled = useMemo(() => ({ ...(row ?? {}), ...labels }), [row, labels]);
  const save = useSaveTeam();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    try {
      const answer = await save.mutateAsync(teamPayload(form.payload(), team ? team.team_id : null, team?.row_version));
      form.markSaved();
      notifySuccess(answer.detail || t('form.saved'));
      onSaved(answer.team_id ?? team?.team_id ?? 0);
    } catch (error) {
      const message = applyFieldErrors(error, form, t('form.fix_errors'));
      setFormError(message ?? errorMessage(error));
      if (message === null) toastUnlessShown(error);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('teams.form')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        <RecordForm form={form} row={labelled} />
        {formError && (
          <Alert color="red" role="alert" variant="light">
            {formError}
          </Alert>
        )}
        {mode !== 'view' && (
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel} disabled={save.isPending}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {mode === 'create' ? t('form.create') : t('form.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The team's members with the validity of each membership (PUT and DELETE /teams/users). */
function Members({ team, canUpdate }: { team: Team; canUpdate: boolean }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState<TeamMember | 'new' | null>(null);
  const removeMember = useRemoveMembership();
  const confirmRemove = (m: TeamMember) =>
    modals.openConfirmModal({
      title: t('teams.remove_member'),
      children: t('teams.remove_member_confirm', { name: `${m.user_firstname} ${m.user_lastname}`, team: team.team_name }),
      labels: { confirm: t('teams.remove_member'), cancel: t('form.cancel') },
      confirmProps: { color: 'red', 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        removeMember.mutate(
          { team_id: team.team_id, user_id: m.user_id },
          { onSuccess: (answer) => notifySuccess(answer.detail || t('teams.member_removed')), onError: toastUnlessShown },
        ),
    });
  const day = (v: string | null) => (v ? formatDate(v, i18n.language) : '—');
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t('teams.members')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} fz="md">
            {t('teams.members')} ({team.users.length})
          </Title>
          {canUpdate && (
            <Button size="xs" leftSection={<IconUserPlus size={14} />} onClick={() => setEditing('new')}>
              {t('teams.add_member')}
            </Button>
          )}
        </Group>
        {team.users.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" p="md">
            {t('teams.no_members')}
          </Text>
        ) : (
          <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('teams.members')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.name')}</Table.Th>
                <Table.Th w={160}>{t('teams.valid_from')}</Table.Th>
                <Table.Th w={160}>{t('teams.valid_to')}</Table.Th>
                {canUpdate && <Table.Th w={100} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {team.users.map((m) => (
                <Table.Tr key={m.user_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/table/user/view/${m.user_id}`} size="sm">
                      {m.user_firstname} {m.user_lastname}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{day(m.valid_from)}</Table.Td>
                  <Table.Td>{day(m.valid_to)}</Table.Td>
                  {canUpdate && (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label={t('teams.edit_member')}>
                          <ActionIcon variant="subtle" aria-label={t('teams.edit_member')} onClick={() => setEditing(m)}>
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('teams.remove_member')}>
                          <ActionIcon variant="subtle" color="red" aria-label={t('teams.remove_member')} onClick={() => confirmRemove(m)}>
                            <IconUserMinus size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {editing && <MemberModal team={team} member={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}

/** Adds a member or changes a membership's validity; valid_to may not be before valid_from. */
function MemberModal({ team, member, onClose }: { team: Team; member: TeamMember | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetMembership();
  const [userId, setUserId] = useState<number | null>(member?.user_id ?? null);
  // A typed text that is no date stays as typed (UnparsedInput) and is reported on saving.
  const [from, setFrom] = useState<string | null | UnparsedInput>(member?.valid_from ?? null);
  const [to, setTo] = useState<string | null | UnparsedInput>(member?.valid_to ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fromLabel = t('teams.valid_from');
  const day = (v: string | null | UnparsedInput) => (typeof v === 'string' ? v : null);
  const submit = () => {
    const next: Record<string, string> = {};
    if (userId === null) next.user_id = t('validation.required', { field: t('teams.member') });
    if (from instanceof UnparsedInput) next.valid_from = t(from.messageKey, from.vars);
    if (to instanceof UnparsedInput) next.valid_to = t(to.messageKey, to.vars);
    else if (endsBeforeStart(day(from), day(to))) next.valid_to = t('validation.date_after', { attribute: fromLabel });
    setErrors(next);
    if (Object.keys(next).length > 0 || userId === null) return;
    const input: MembershipInput = { team_id: team.team_id, user_id: userId, valid_from: day(from), valid_to: day(to) };
    save.mutate(input, {
      onSuccess: (answer) => {
        notifySuccess(answer.detail || t('teams.member_saved'));
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
        else toastUnlessShown(error);
      },
    });
  };
  const known: Record<string, string> = member ? { [String(member.user_id)]: `${member.user_firstname} ${member.user_lastname}` } : {};
  return (
    <Modal opened onClose={onClose} title={member ? t('teams.edit_member') : t('teams.add_member')} centered size="lg">
      <Stack>
        <RemoteSelect
          refDef={USER_REF}
          label={t('teams.member')}
          value={userId}
          onChange={(v) => setUserId(typeof v === 'number' ? v : null)}
          knownLabels={known}
          required
          readOnly={Boolean(member)}
          error={errors.user_id}
          nothingFound={t('form.not_available', { field: t('teams.member') })}
          data-field="user_id"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateTextInput label={fromLabel} value={from} onChange={setFrom} error={errors.valid_from} data-field="valid_from" />
          <DateTextInput
            label={t('teams.valid_to')}
            minDate={day(from) ?? undefined}
            value={to}
            onChange={setTo}
            error={errors.valid_to}
            data-field="valid_to"
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}


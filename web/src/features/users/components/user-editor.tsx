import { Alert, Avatar, Button, Group, MultiSelect, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormServices } from '../../../components/form/field-input';
import { RecordForm } from '../../../components/form/record-form';
import { applyFieldErrors } from '../../../components/form/server-errors';
import { type RecordFormState, useRecordForm } from '../../../components/form/use-record-form';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { AttributeDefinition, Row, TableDefinition } from '../../../lib/table-definition';
import { useSession } from '../../../lib/use-session';
import { useCompanyTeams } from '../api/list-company-teams';
import { useCreateUser } from '../api/create-user';
import { generatePassword } from '../api/generate-password';
import { useMissingLabels } from '../api/get-labels';
import { useLookup } from '../api/list-lookup';
import { useUpdateUser } from '../api/update-user';
import {
  callerPreset,
  callerScope,
  initials,
  isExternalType,
  sectionAttributes,
  teamChoices,
  USER_SECTIONS,
  type UserFormMode,
  type UserSection,
  userAttributes,
  userPayload,
} from '../model/user-form';

export interface UserEditorProps {
  def: TableDefinition;
  mode: UserFormMode;
  /** The stored user (update, view). */
  row?: Row | null;
  /** Called with the saved user's id. */
  onSaved?: (id: number) => void;
  onCancel?: () => void;
  /** Loads the stored user again (after someone else changed it: 409). */
  onReload?: () => void;
  /** Columns of each section's grid (1 in the modal on phones is automatic). */
  columns?: number;
}

const SECTION_TITLES: Record<UserSection, string> = {
  person: 'users.section_person',
  access: 'users.section_access',
  organisation: 'users.section_organisation',
};

/** A form state showing only some of the attributes (a section), sharing values and errors. */
function sectionForm(form: RecordFormState, attributes: AttributeDefinition[]): RecordFormState {
  return { ...form, attributes };
}

/**
 * The user form: every field of the User entity with its rule, in three
 * sections, over the served definition. Creates through POST /users and
 * saves through PUT /users/{id}; 422 answers land on their fields.
 */
export function UserEditor({ def, mode, row, onSaved, onCancel, onReload, columns = 2 }: UserEditorProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const caller = useMemo(() => callerScope(user), [user]);
  const usertypes = useLookup('usertype');
  const roles = useLookup('role');
  const [start] = useState<Row | null | undefined>(() => (mode === 'create' ? { ...callerPreset(caller), ...(row ?? {}) } : row));
  // The attributes depend on the chosen user type (roles, visibility): the
  // form reports a new type, the next render adapts them.
  const [typeId, setTypeId] = useState<unknown>(start?.usertype_id ?? null);
  const external = isExternalType(usertypes.data, typeId);
  const attrs = useMemo(() => userAttributes(def.attributes, { mode, external, caller }), [def.attributes, mode, external, caller]);
  const form = useRecordForm(attrs, mode, start);
  const create = useCreateUser();
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const busy = create.isPending || update.isPending;

  const { values } = form;
  useEffect(() => {
    if (values.usertype_id !== typeId) setTypeId(values.usertype_id);
  }, [values.usertype_id, typeId]);
  const labels = useMissingLabels(attrs, mode === 'create' ? null : row);
  const labelled = useMemo(() => ({ ...(row ?? {}), ...labels }), [row, labels]);

  // A new user type takes away a role of the other kind.
  const previousType = useRef(values.usertype_id);
  useEffect(() => {
    if (previousType.current === values.usertype_id) return;
    previousType.current = values.usertype_id;
    const chosen = isExternalType(usertypes.data, values.usertype_id);
    const role = roles.data?.find((r) => String(r.role_id) === String(form.values.role_id));
    if (role && chosen !== null && Number(role.role_external) !== (chosen ? 1 : 0)) form.setValue('role_id', null);
  }, [values.usertype_id, usertypes.data, roles.data, form]);

  const services: FormServices = { generatePassword };

  const submit = async () => {
    setFormError(null);
    if (!form.validate()) {
      setFormError(t('form.fix_errors'));
      return;
    }
    const data = userPayload(form.payload(), mode);
    try {
      const answer =
        mode === 'create'
          ? await create.mutateAsync(data)
          : await update.mutateAsync({ id: Number(row?.user_id), data, rowVersion: Number(row?.row_version ?? 0) || null });
      form.markSaved();
      notifySuccess(answer.detail || (mode === 'create' ? t('users.created') : t('users.updated')));
      onSaved?.(answer.user_id ?? Number(row?.user_id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setConflict(true);
      } else {
        const message = applyFieldErrors(error, form, t('form.fix_errors'));
        setFormError(message ?? errorMessage(error));
        if (message === null && !(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
      }
    }
  };

  /** A section's fields; `middle` goes between the fields before and after `splitAt` (the teams after the role). */
  const section = (name: UserSection, middle?: ReactNode, aside?: ReactNode, splitAt?: string) => {
    const list = sectionAttributes(attrs, name);
    const order: readonly string[] = USER_SECTIONS[name];
    const cut = splitAt ? order.indexOf(splitAt) : -1;
    const before = cut < 0 ? list : list.filter((a) => order.indexOf(a.attribute) < cut);
    const after = cut < 0 ? [] : list.filter((a) => order.indexOf(a.attribute) > cut);
    return (
      <Paper withBorder radius="md" p="md" component="section" aria-label={t(SECTION_TITLES[name])} key={name}>
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={3} fz="md">
              {t(SECTION_TITLES[name])}
            </Title>
            {aside}
          </Group>
          <RecordForm form={sectionForm(form, before)} row={labelled} services={services} columns={columns} />
          {middle}
          {after.length > 0 && <RecordForm form={sectionForm(form, after)} row={labelled} services={services} columns={columns} />}
        </Stack>
      </Paper>
    );
  };

  const abbreviation = attrs.find((a) => a.attribute === 'user_abbreviation');
  const teamAttr = attrs.find((a) => a.attribute === 'team_id');
  const body = (
    <Stack gap="md">
      {section(
        'person',
        undefined,
        mode === 'create' && abbreviation ? (
          <Tooltip label={t('users.abbreviation_hint')}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                {abbreviation.attribute_i18n}
              </Text>
              <Avatar size="md" radius="xl" color="indigo" variant="light" data-field="user_abbreviation" aria-label={abbreviation.attribute_i18n}>
                {initials(values.user_firstname, values.user_lastname) || '–'}
              </Avatar>
            </Group>
          </Tooltip>
        ) : undefined,
      )}
      {section(
        'access',
        teamAttr ? (
          <TeamField form={form} attr={teamAttr} external={external} readOnly={mode === 'view' || Boolean(teamAttr.read_only)} row={labelled} />
        ) : undefined,
        undefined,
        'team_id',
      )}
      {section('organisation')}
      {formError && (
        <Alert color="red" role="alert" variant="light">
          {formError}
        </Alert>
      )}
      {conflict && (
        <Alert color="yellow" role="alert" title={t('form.conflict_title')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('form.conflict_text')}</Text>
            {onReload && (
              <Button size="xs" variant="light" onClick={onReload}>
                {t('form.reload_record')}
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      {mode !== 'view' && (
        <Group justify="flex-end" gap="xs">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={busy}>
              {t('form.cancel')}
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {mode === 'create' ? t('form.create') : t('form.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );

  return (
    <form
      noValidate
      aria-label={t('users.form')}
      onSubmit={(e) => {
        e.preventDefault();
        e.stopPropagation();
        void submit();
      }}
    >
      {body}
    </form>
  );
}

/**
 * The teams of a user: GET /teams (with the company, for client users), only
 * customer teams for external users; says so when the company has none.
 */
function TeamField({
  form,
  attr,
  external,
  readOnly,
  row,
}: {
  form: RecordFormState;
  attr: AttributeDefinition;
  external: boolean | null;
  readOnly: boolean;
  row: Row;
}) {
  const { t } = useTranslation();
  const clientCompany = external && Number(form.values.firmengroup_type) === 1 && form.values.company_id ? Number(form.values.company_id) : null;
  const teams = useCompanyTeams(clientCompany);
  const choices = useMemo(() => teamChoices(teams.data ?? [], external), [teams.data, external]);
  const current = Array.isArray(form.values.team_id) ? (form.values.team_id as unknown[]).map(String) : [];
  const known = Array.isArray(row.team_id__label) ? (row.team_id__label as unknown[]) : [];
  const storedIds = Array.isArray(row.team_id) ? (row.team_id as unknown[]).map(String) : [];
  const data = useMemo(() => {
    const map = new Map(choices.map((c) => [String(c.team_id), c.team_name]));
    for (const id of current) {
      if (!map.has(id)) {
        const at = storedIds.indexOf(id);
        const name = teams.data?.find((x) => String(x.team_id) === id)?.team_name ?? (at >= 0 ? known[at] : undefined);
        map.set(id, name ? String(name) : `#${id}`);
      }
    }
    return [...map].map(([value, label]) => ({ value, label }));
  }, [choices, current, teams.data, known, storedIds]);

  // A new company takes away the teams it does not offer.
  const previous = useRef(clientCompany);
  useEffect(() => {
    if (previous.current === clientCompany || !teams.data || readOnly) return;
    previous.current = clientCompany;
    const allowed = new Set(choices.map((c) => String(c.team_id)));
    const kept = current.filter((id) => allowed.has(id));
    if (kept.length !== current.length) form.setValue('team_id', kept.map(Number));
  }, [clientCompany, teams.data, choices, current, form, readOnly]);

  const noTeams = Boolean(clientCompany && teams.data && choices.length === 0);
  const label = attr.attribute_i18n;
  return (
    <MultiSelect
      label={label}
      data={data}
      value={current}
      onChange={(ids) => form.setValue('team_id', ids.map(Number))}
      readOnly={readOnly}
      variant={readOnly ? 'filled' : undefined}
      searchable={!readOnly}
      clearable={!readOnly}
      hidePickedOptions
      error={form.errors.team_id ?? (noTeams && !readOnly ? t('users.no_teams_for_company') : undefined)}
      description={external && !readOnly && !noTeams ? t('users.customer_teams_only') : undefined}
      nothingFoundMessage={t('form.not_available', { field: label })}
      comboboxProps={{ withinPortal: true }}
      data-field="team_id"
    />
  );
}

import { Alert, Badge, Button, Card, Grid, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { PasswordInput } from '../../../components/password-input';
import { IconAlertCircle, IconDeviceFloppy, IconKey } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newPasswordError, PasswordFields, type NewPasswordValue } from '../../../components/password-fields';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { setLanguage } from '../../../lib/i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../../lib/language';
import { notifySuccess } from '../../../lib/notify';
import type { CurrentUser } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { useChangeOwnPassword } from '../api/change-own-password';
import { type ProfileInput, useUpdateProfile } from '../api/update-profile';
import { CalendarLinkCard, DeadlineAlertsCard } from './deadline-settings';
import { roleLabel, usertypeLabel } from './labels';

function toInput(user: CurrentUser | null, fallbackLanguage: string): ProfileInput {
  return {
    user_firstname: user?.user_firstname ?? '',
    user_lastname: user?.user_lastname ?? '',
    user_fix_phonenumber: user?.user_fix_phonenumber ?? '',
    user_fax_phonenumber: user?.user_fax_phonenumber ?? '',
    user_mobile: user?.user_mobile ?? '',
    user_language: isLanguage(user?.user_language) ? user.user_language : fallbackLanguage,
  };
}

const emptyToNull = (value: string | null) => (value && value.trim() ? value.trim() : null);

function ProfileForm({ user }: { user: CurrentUser | null }) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<ProfileInput>(() => toInput(user, i18n.language));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const update = useUpdateProfile();
  const set = (key: keyof ProfileInput) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const errors: Record<string, string> = {};
    if (!form.user_firstname.trim()) errors.user_firstname = t('validation.required', { field: t('profile.firstname') });
    if (!form.user_lastname.trim()) errors.user_lastname = t('validation.required', { field: t('profile.lastname') });
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    const payload: ProfileInput = {
      ...form,
      user_firstname: form.user_firstname.trim(),
      user_lastname: form.user_lastname.trim(),
      user_fix_phonenumber: emptyToNull(form.user_fix_phonenumber),
      user_fax_phonenumber: emptyToNull(form.user_fax_phonenumber),
      user_mobile: emptyToNull(form.user_mobile),
    };
    update.mutate(payload, {
      onSuccess: () => {
        notifySuccess(t('profile.saved'));
        if (isLanguage(payload.user_language) && payload.user_language !== i18n.language) {
          void setLanguage(payload.user_language);
        }
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 422) setFieldErrors(error.fieldErrors());
      },
    });
  };

  const generalError =
    update.error && !(update.error instanceof ApiError && (update.error.status === 422 || update.error.notified))
      ? errorMessage(update.error)
      : null;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-data-title">
      <form onSubmit={onSubmit}>
        <Stack gap="md">
          <Title order={2} fz="lg" id="profile-data-title">
            {t('profile.personal_data')}
          </Title>
          {generalError ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {generalError}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('profile.firstname')}
              required
              autoComplete="given-name"
              value={form.user_firstname}
              error={fieldErrors.user_firstname}
              onChange={(e) => set('user_firstname')(e.currentTarget.value)}
            />
            <TextInput
              label={t('profile.lastname')}
              required
              autoComplete="family-name"
              value={form.user_lastname}
              error={fieldErrors.user_lastname}
              onChange={(e) => set('user_lastname')(e.currentTarget.value)}
            />
            <TextInput
              label={t('profile.phone')}
              type="tel"
              autoComplete="tel"
              value={form.user_fix_phonenumber ?? ''}
              error={fieldErrors.user_fix_phonenumber}
              onChange={(e) => set('user_fix_phonenumber')(e.currentTarget.value)}
            />
            <TextInput
              label={t('profile.mobile')}
              type="tel"
              autoComplete="tel"
              value={form.user_mobile ?? ''}
              error={fieldErrors.user_mobile}
              onChange={(e) => set('user_mobile')(e.currentTarget.value)}
            />
            <TextInput
              label={t('profile.fax')}
              type="tel"
              value={form.user_fax_phonenumber ?? ''}
              error={fieldErrors.user_fax_phonenumber}
              onChange={(e) => set('user_fax_phonenumber')(e.currentTarget.value)}
            />
            <Select
              label={t('profile.language')}
              data={LANGUAGES.map((lang) => ({ value: lang, label: LANGUAGE_NAMES[lang] }))}
              value={form.user_language}
              allowDeselect={false}
              error={fieldErrors.user_language}
              onChange={(value) => value && set('user_language')(value)}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} leftSection={<IconDeviceFloppy size={16} />}>
              {t('general.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [oldPassword, setOldPassword] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ old?: string; password?: string; confirm?: string } | null>(null);
  const change = useChangeOwnPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordError(value);
    const next: { old?: string; password?: string; confirm?: string } = {};
    if (!oldPassword) next.old = t('validation.required', { field: t('auth.current_password') });
    if (problem?.password) next.password = t(problem.password);
    if (problem?.confirm) next.confirm = t(problem.confirm);
    setErrors(Object.keys(next).length ? next : null);
    if (Object.keys(next).length) return;
    change.mutate(
      { old_password: oldPassword, new_password: value.password },
      {
        onSuccess: (answer) => {
          notifySuccess(answer?.detail || t('profile.password_changed'));
          setOldPassword('');
          setValue({ password: '', confirm: '' });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            const fields = error.fieldErrors();
            setErrors({ old: fields.old_password, password: fields.new_password ?? t('auth.password_rule_error') });
          } else if (error instanceof ApiError && error.status === 400) {
            setErrors({ old: errorMessage(error) });
          }
        },
      },
    );
  };

  const generalError =
    change.error && change.error instanceof ApiError && ![400, 422].includes(change.error.status) && !change.error.notified
      ? errorMessage(change.error)
      : null;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-password-title">
      <form onSubmit={onSubmit}>
        <Stack gap="md">
          <Title order={2} fz="lg" id="profile-password-title">
            {t('profile.password_title')}
          </Title>
          <Text fz="sm" c="dimmed">
            {t('profile.password_note')}
          </Text>
          {generalError ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {generalError}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('auth.current_password')}
            autoComplete="current-password"
            required
            value={oldPassword}
            error={errors?.old}
            onChange={(e) => setOldPassword(e.currentTarget.value)}
          />
          <PasswordFields value={value} onChange={setValue} errors={errors} />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending} leftSection={<IconKey size={16} />}>
              {t('profile.change_password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function AccountFacts({ user }: { user: CurrentUser | null }) {
  const { t } = useTranslation();
  const rows: [string, React.ReactNode][] = [
    [t('auth.email'), user?.user_email],
    [t('profile.usertype'), user?.usertype ? usertypeLabel(t, user.usertype) : null],
    [
      t('profile.roles'),
      user?.roles?.length ? (
        <Group gap={4}>
          {user.roles.map((role) => (
            <Badge key={role.role_id} variant="light">
              {roleLabel(t, role)}
            </Badge>
          ))}
        </Group>
      ) : null,
    ],
    [
      t('profile.teams'),
      user?.teams?.length ? (
        <Group gap={4}>
          {user.teams.map((team) => (
            <Badge key={team.team_id} variant="outline">
              {team.team_name}
            </Badge>
          ))}
        </Group>
      ) : null,
    ],
    [t('profile.company'), user?.company?.company_name ?? user?.partnercompany?.map((p) => p.partnercompany_name).join(', ')],
  ];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-account-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="profile-account-title">
          {t('profile.account')}
        </Title>
        {rows.map(([label, content]) => (
          <div key={label}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text component="div" fz="sm">
              {content || '—'}
            </Text>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

/** /app/:table/profile: the user's own profile and password. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {t('profile.title')}
      </Title>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <ProfileForm key={user?.user_id ?? 'none'} user={user} />
            <PasswordForm />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            <AccountFacts user={user} />
            <DeadlineAlertsCard />
            <CalendarLinkCard />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export default ProfilePage;

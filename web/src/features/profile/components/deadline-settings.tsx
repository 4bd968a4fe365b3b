import { Alert, Button, Card, Chip, Code, CopyButton, Group, Modal, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCalendarPlus, IconCalendarX, IconCheck, IconCopy, IconDeviceFloppy } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import { useCreateCalendarLink } from '../api/create-calendar-link';
import { useCalendarLink } from '../api/get-calendar-link';
import { type DeadlineAlertSettings, useDeadlineAlerts } from '../api/get-deadline-alerts';
import { useRevokeCalendarLink } from '../api/revoke-calendar-link';
import { useSaveDeadlineAlerts, validHorizons } from '../api/save-deadline-alerts';

/** Horizons offered besides the ones the user already has. */
const HORIZON_CHOICES = [365, 180, 90, 60, 30, 14, 7, 1];

function DigestForm({ initial }: { initial: DeadlineAlertSettings }) {
  const { t } = useTranslation();
  const [digest, setDigest] = useState(initial.digest);
  const [horizons, setHorizons] = useState<string[]>(initial.horizons.map(String));
  const save = useSaveDeadlineAlerts();
  const choices = [...new Set([...HORIZON_CHOICES, ...initial.horizons])].sort((a, b) => b - a);
  const values = horizons.map(Number);
  const invalid = !validHorizons(values);
  const serverError = save.error instanceof ApiError && save.error.status === 422 ? save.error.fieldErrors().horizons : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    save.mutate({ digest, horizons: values }, { onSuccess: () => notifySuccess(t('profile.digest_saved')) });
  };

  return (
    <form onSubmit={onSubmit}>
      <Stack gap="sm">
        <Switch
          label={t('profile.digest')}
          description={t('profile.digest_help')}
          checked={digest}
          onChange={(e) => setDigest(e.currentTarget.checked)}
        />
        <div role="group" aria-labelledby="profile-horizons-label">
          <Text id="profile-horizons-label" fz="sm" fw={500} mb={4}>
            {t('profile.horizons')}
          </Text>
          <Chip.Group multiple value={horizons} onChange={setHorizons}>
            <Group gap={6}>
              {choices.map((d) => (
                <Chip key={d} value={String(d)} size="sm" disabled={!digest}>
                  {d}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Text fz="xs" c={invalid || serverError ? 'red' : 'dimmed'} mt={4}>
            {serverError || t('profile.horizons_help')}
          </Text>
        </div>
        {save.error && !serverError && !(save.error instanceof ApiError && save.error.notified) ? (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={invalid} leftSection={<IconDeviceFloppy size={16} />}>
            {t('profile.digest_save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The digest settings of the user's deadlines. */
export function DeadlineAlertsCard() {
  const { t } = useTranslation();
  const settings = useDeadlineAlerts();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-deadlines-title">
      <Stack gap="md">
        <Title order={2} fz="lg" id="profile-deadlines-title">
          {t('profile.deadlines_title')}
        </Title>
        {settings.data ? (
          <DigestForm initial={settings.data} />
        ) : settings.isError ? (
          <Alert color="red">{errorMessage(settings.error)}</Alert>
        ) : (
          <Skeleton h={120} />
        )}
      </Stack>
    </Card>
  );
}

/**
 * The user's secret calendar link: create (shown once, with a copy button)
 * and revoke, offered only while a link exists. A link made earlier is
 * reported with its date; its URL cannot be shown again (only its hash is
 * stored).
 */
export function CalendarLinkCard() {
  const { t, i18n } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const state = useCalendarLink();
  const exists = url !== null || state.data?.exists === true;
  const [confirm, setConfirm] = useState(false);
  const create = useCreateCalendarLink();
  const revoke = useRevokeCalendarLink();

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-calendar-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="profile-calendar-title">
          {t('profile.calendar_title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('profile.calendar_help')}
        </Text>
        {url ? (
          <Stack gap={6}>
            <Text fz="sm" fw={500} id="profile-calendar-url-label">
              {t('profile.calendar_url')}
            </Text>
            <Code
              block
              aria-labelledby="profile-calendar-url-label"
              data-testid="calendar-url"
              style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            >
              {url}
            </Code>
            <Text fz="xs" c="dimmed">
              {t('profile.calendar_shown_once')}
            </Text>
            <Group justify="flex-end">
              <CopyButton value={url}>
                {({ copied, copy }) => (
                  <Button
                    size="xs"
                    variant="light"
                    color={copied ? 'teal' : undefined}
                    leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                    onClick={copy}
                  >
                    {copied ? t('profile.calendar_copied') : t('profile.calendar_copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        ) : exists ? (
          <Text fz="sm" data-testid="calendar-exists">
            {t('profile.calendar_exists', { date: formatDate((state.data?.created_at ?? '').slice(0, 10), i18n.language) })}
          </Text>
        ) : null}
        <Group gap="xs" justify="flex-end">
          {exists && (
            <Button variant="default" leftSection={<IconCalendarX size={16} />} onClick={() => setConfirm(true)}>
              {t('profile.calendar_revoke')}
            </Button>
          )}
          <Button
            leftSection={<IconCalendarPlus size={16} />}
            loading={create.isPending}
            onClick={() => create.mutate(undefined, { onSuccess: setUrl })}
          >
            {exists ? t('profile.calendar_replace') : t('profile.calendar_create')}
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title={t('profile.calendar_revoke_title')} centered>
        <Stack gap="md">
          <Text fz="sm">{t('profile.calendar_revoke_confirm')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirm(false)}>
              {t('form.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(undefined, {
                  onSuccess: () => {
                    setUrl(null);
                    setConfirm(false);
                    notifySuccess(t('profile.calendar_revoked'));
                  },
                  onError: () => setConfirm(false),
                })
              }
            >
              {t('profile.calendar_revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

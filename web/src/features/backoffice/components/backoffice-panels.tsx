import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowBackUp, IconMailForward, IconPencil, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  type MailState,
  type TranslationRow,
  useBumpRights,
  useChangeTranslation,
  useOutbox,
  useRetryMail,
  useRightsGeneration,
  useTranslations,
} from '../api/backoffice';

const MAIL_COLORS: Record<MailState, string> = { pending: 'blue', retrying: 'yellow', given_up: 'red', sent: 'teal', dismissed: 'gray' };
const MAIL_STATES: (MailState | '')[] = ['', 'pending', 'retrying', 'given_up', 'sent', 'dismissed'];
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
const BREAK = { wordBreak: 'break-word' } as const;

function failed(error: unknown) {
  if (!(error instanceof ApiError && error.notified)) notifyError(errorMessage(error));
}

/** The mail outbox: every message with its state, recipients and attempts; a retrying or given-up one can be sent again. */
export function OutboxPanel() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<MailState | ''>('');
  const outbox = useOutbox(state);
  const retry = useRetryMail();
  const when = (v: string | null) => (v ? formatDate(v, i18n.language) : '—');
  const rows = outbox.data ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('backoffice.outbox.intro')}
      </Text>
      <SegmentedControl
        value={state}
        onChange={(v) => setState(v as MailState | '')}
        data={MAIL_STATES.map((s) => ({ value: s, label: t(`backoffice.outbox.state.${s || 'all'}`) }))}
        aria-label={t('backoffice.outbox.filter')}
        style={{ alignSelf: 'flex-start' }}
      />
      {outbox.isError && !outbox.data ? (
        <Alert color="red">{errorMessage(outbox.error)}</Alert>
      ) : !outbox.data ? (
        <Loader />
      ) : rows.length === 0 ? (
        <Text ta="center" p="xl" fw={500} data-testid="outbox-empty">
          {t('backoffice.outbox.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped withTableBorder fz="sm" horizontalSpacing="xs" aria-label={t('backoffice.outbox.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('backoffice.outbox.col.recipients')}</Table.Th>
                <Table.Th>{t('backoffice.outbox.col.subject')}</Table.Th>
                <Table.Th>{t('backoffice.outbox.col.queued')}</Table.Th>
                <Table.Th>{t('backoffice.col.state')}</Table.Th>
                <Table.Th>{t('backoffice.col.attempts')}</Table.Th>
                <Table.Th>{t('backoffice.outbox.col.error')}</Table.Th>
                <Table.Th w={50} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={m.id} data-testid="outbox-row">
                  <Table.Td style={BREAK}>
                    {m.to}
                    {m.cc && (
                      <Text size="xs" c="dimmed">
                        {t('backoffice.outbox.cc', { cc: m.cc })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={BREAK}>{m.subject}</Table.Td>
                  <Table.Td style={NO_WRAP}>{when(m.created_at)}</Table.Td>
                  <Table.Td style={NO_WRAP}>
                    <Badge variant="light" color={MAIL_COLORS[m.state]} styles={{ label: { overflow: 'visible' } }}>
                      {t(`backoffice.outbox.state.${m.state}`)}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {m.state === 'sent'
                        ? t('backoffice.outbox.sent_at', { when: when(m.sent_at) })
                        : m.next_attempt_at
                          ? t('backoffice.outbox.next_at', { when: when(m.next_attempt_at) })
                          : null}
                    </Text>
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>
                    {m.attempts} / {m.max_attempts}
                  </Table.Td>
                  <Table.Td style={BREAK}>
                    {m.error ? (
                      <Text size="sm" c={m.state === 'sent' ? 'dimmed' : 'red'}>
                        {m.error}
                      </Text>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {(m.state === 'retrying' || m.state === 'given_up') && (
                      <Tooltip label={t('errors.send_again')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${t('errors.send_again')}: ${m.subject}`}
                          loading={retry.isPending && retry.variables === m.id}
                          onClick={() => retry.mutate(m.id, { onSuccess: () => notifySuccess(t('errors.retried')), onError: failed })}
                        >
                          <IconMailForward size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** The translation tables' edits: texts that differ from the shipped ones, edited in place (kept over later shipped texts) or restored. */
export function TranslationsPanel() {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<TranslationRow | null>(null);
  const [text, setText] = useState('');
  const list = useTranslations(all, q);
  const change = useChangeTranslation();
  const rows = list.data?.data ?? [];

  const save = () => {
    if (!editing) return;
    change.mutate(
      { row: editing, text },
      {
        onSuccess: () => {
          notifySuccess(t('backoffice.translations.saved'));
          setEditing(null);
        },
        onError: failed,
      },
    );
  };
  const revert = (row: TranslationRow) =>
    modals.openConfirmModal({
      title: t('backoffice.translations.revert_title'),
      children: t('backoffice.translations.revert_confirm', { key: row.key, text: row.shipped }),
      labels: { confirm: t('backoffice.translations.revert'), cancel: t('form.cancel') },
      confirmProps: { 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        change.mutate({ row, text: null }, { onSuccess: () => notifySuccess(t('backoffice.translations.reverted')), onError: failed }),
    });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('backoffice.translations.intro')}
      </Text>
      <Group gap="md" align="center">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('backoffice.translations.search')}
          aria-label={t('backoffice.translations.search')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={320}
        />
        <Switch checked={all} onChange={(e) => setAll(e.currentTarget.checked)} label={t('backoffice.translations.show_all')} />
      </Group>
      {list.isError && !list.data ? (
        <Alert color="red">{errorMessage(list.error)}</Alert>
      ) : !list.data ? (
        <Loader />
      ) : rows.length === 0 ? (
        <Text ta="center" p="xl" fw={500} data-testid="translations-empty">
          {t('backoffice.translations.empty')}
        </Text>
      ) : (
        <>
          {list.data.total > rows.length && (
            <Text size="sm" c="dimmed">
              {t('backoffice.translations.more', { shown: rows.length, total: list.data.total })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder fz="sm" horizontalSpacing="xs" aria-label={t('backoffice.translations.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('backoffice.translations.col.key')}</Table.Th>
                  <Table.Th>{t('backoffice.translations.col.lang')}</Table.Th>
                  <Table.Th>{t('backoffice.translations.col.text')}</Table.Th>
                  <Table.Th>{t('backoffice.translations.col.shipped')}</Table.Th>
                  <Table.Th w={80} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={`${r.table}-${r.id}`} data-testid="translation-row">
                    <Table.Td style={BREAK}>
                      <Text size="sm" ff="monospace">
                        {r.key}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t(`backoffice.translations.table.${r.table}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td style={NO_WRAP}>{r.lang.toUpperCase()}</Table.Td>
                    <Table.Td style={BREAK}>
                      {r.text}
                      {r.text !== r.shipped && (
                        <Badge ml={6} size="xs" variant="light" color={r.edited ? 'teal' : 'orange'}>
                          {t(r.edited ? 'backoffice.translations.kept' : 'backoffice.translations.not_kept')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td style={BREAK}>
                      <Text size="sm" c="dimmed">
                        {r.shipped || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('backoffice.translations.edit')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`${t('backoffice.translations.edit')}: ${r.key} (${r.lang})`}
                            onClick={() => {
                              setEditing(r);
                              setText(r.text);
                            }}
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        {(r.edited || r.text !== r.shipped) && r.shipped !== '' && (
                          <Tooltip label={t('backoffice.translations.revert')}>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`${t('backoffice.translations.revert')}: ${r.key} (${r.lang})`}
                              onClick={() => revert(r)}
                            >
                              <IconArrowBackUp size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t('backoffice.translations.edit_title')} centered>
        {editing && (
          <Stack gap="sm">
            <Text size="sm">
              <Text span ff="monospace">
                {editing.key}
              </Text>{' '}
              ({editing.lang.toUpperCase()})
            </Text>
            <Text size="xs" c="dimmed">
              {t('backoffice.translations.shipped_is', { text: editing.shipped || '—' })}
            </Text>
            <Textarea
              label={t('backoffice.translations.col.text')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              autosize
              minRows={2}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('form.cancel')}
              </Button>
              <Button onClick={save} loading={change.isPending} disabled={text.trim() === ''}>
                {t('backoffice.translations.save')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

/** The rights generation: what it is, its current value, and a bump that makes every user's rights be computed anew. */
export function RightsPanel() {
  const { t } = useTranslation();
  const gen = useRightsGeneration();
  const bump = useBumpRights();
  const confirm = () =>
    modals.openConfirmModal({
      title: t('backoffice.rights.bump_title'),
      children: t('backoffice.rights.bump_confirm'),
      labels: { confirm: t('backoffice.rights.bump'), cancel: t('form.cancel') },
      confirmProps: { 'data-autofocus': true },
      centered: true,
      onConfirm: () =>
        bump.mutate(undefined, {
          onSuccess: (g) => notifySuccess(t('backoffice.rights.bumped', { generation: g.generation })),
          onError: failed,
        }),
    });
  return (
    <Card withBorder radius="md" padding="lg" maw={760}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('backoffice.rights.title')}
        </Title>
        <Text size="sm">{t('backoffice.rights.intro')}</Text>
        {gen.isError ? (
          <Alert color="red">{errorMessage(gen.error)}</Alert>
        ) : (
          <Group gap="xs" align="baseline">
            <Text size="sm" c="dimmed">
              {t('backoffice.rights.current')}
            </Text>
            <Text fz={28} fw={700} data-testid="rights-generation">
              {gen.data ? gen.data.generation : '…'}
            </Text>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          {t('backoffice.rights.when')}
        </Text>
        <Group>
          <Button leftSection={<IconRefresh size={16} />} variant="light" onClick={confirm} loading={bump.isPending}>
            {t('backoffice.rights.bump')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

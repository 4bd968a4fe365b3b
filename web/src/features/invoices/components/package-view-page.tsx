import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconArrowLeft, IconEdit, IconFileTypePdf } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../lib/language';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDefinition } from '../../tables/api/get-definition';
import { DefinitionError } from '../../tables/components/table-common';
import { serverDetail, toastError } from '../../tables/components/table-errors';
import { formatDate } from '../../../lib/dates';
import { isoDay } from '../../tables/components/traffic-light';
import { downloadLetter, useLateInvoices, usePackage, usePackageLanguage, usePosContradictions, useSetPackage } from '../api/packages';
import { fieldLabel } from '../model/labels';
import { formatAmount } from '../model/review';
import { ContradictionPicker } from './contradiction-picker';

/**
 * /app/table/custom/contracdictionpackage/view/{id}: a package with its
 * count and sum, the contradictions of its point of sale ticked in or out,
 * and its objection letter as a PDF in the language picked (the point of
 * sale's company's language first).
 */
export default function PackageViewPage() {
  const { id = '' } = useParams();
  const packageId = Number(id);
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const ability = useAbility();
  const def = useDefinition('contradictionpackage');
  const pkg = usePackage(packageId);
  const pos = pkg.data ? Number(pkg.data.data.pos_id ?? 0) || null : null;
  const contradictions = usePosContradictions(pos);
  const language = usePackageLanguage(pos);
  const [letterLang, setLetterLang] = useState<Language | null>(null);
  const [downloading, setDownloading] = useState(false);
  const setPackage = useSetPackage(packageId);
  const packed = (contradictions.data ?? []).filter((r) => Number(r.contradictionpackage_id ?? 0) === packageId).map((r) => Number(r.invoice_id));
  const lateOf = useLateInvoices(packed, isoDay(new Date()));
  useEffect(() => {
    if (language.data && letterLang === null) setLetterLang(language.data);
  }, [language.data, letterLang]);

  if (pkg.isPending || def.isPending) return <Loader m="xl" />;
  if (pkg.isError) return <DefinitionError table="contradictionpackage" error={pkg.error} record />;
  if (def.isError) return <DefinitionError table="contradictionpackage" error={def.error} />;
  const row = pkg.data.data;
  const label = (f: string) => fieldLabel(def.data, f);
  const title = String(row.contradictionpackage_name ?? `#${id}`);
  const subject = def.data.access_subject || def.data.subject || 'contradictionpackage';
  const canUpdate = def.data.limits.update && ability.can('update', subject);
  const canPack = ability.can('update', 'contradiction');
  const rows = contradictions.data ?? [];
  const inPackage = new Set(rows.filter((r) => Number(r.contradictionpackage_id ?? 0) === packageId).map((r) => Number(r.contradiction_id)));
  const chosenLang = letterLang ?? language.data ?? 'de';
  const late = lateOf.data ?? [];

  const download = async () => {
    setDownloading(true);
    try {
      await downloadLetter(packageId, chosenLang);
    } catch (error) {
      notifyError(serverDetail(error));
    } finally {
      setDownloading(false);
    }
  };
  // A letter objecting to a statement whose objection deadline passed may
  // come too late (§ 556 (3) BGB, decision 0062): say so before it goes out.
  const letter = () => {
    if (late.length === 0) {
      void download();
      return;
    }
    modals.openConfirmModal({
      title: t('invoices.late_title'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('invoices.late_text', { count: late.length })}</Text>
          {late.map((l) => (
            <Text size="sm" key={l.invoiceId}>
              {t('invoices.late_line', { invoice: l.label, date: formatDate(l.deadline, lang) })}
            </Text>
          ))}
        </Stack>
      ),
      labels: { confirm: t('invoices.late_confirm'), cancel: t('form.cancel') },
      confirmProps: { color: 'orange' },
      centered: true,
      onConfirm: () => void download(),
    });
  };

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4} miw={0}>
          <Breadcrumbs>
            <Anchor component={Link} to="/app/table/contradictionpackage" size="sm">
              {t('table.contradictionpackage')}
            </Anchor>
            <span>{title}</span>
          </Breadcrumbs>
          <Title order={1} size="h2">
            {title}
            <Text span c="dimmed" fw={500} fz="lg" ml="xs">
              #{id}
            </Text>
          </Title>
        </Stack>
        <Group gap="xs">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to="/app/table/contradictionpackage">
            {t('form.back_to_list')}
          </Button>
          {canUpdate && (
            <Button variant="default" leftSection={<IconEdit size={16} />} component={Link} to={`/app/table/contradictionpackage/view/${id}?edit=true`}>
              {t('form.edit')}
            </Button>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {label('pos_id')}
          </Text>
          <Anchor component={Link} to={`/app/table/pos/view/${String(row.pos_id)}`} fw={600}>
            {String(row.pos_id__label ?? row.pos_id)}
          </Anchor>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {label('contradictionpackage_count')}
          </Text>
          <Text fw={700} fz="lg" data-testid="package-count">
            {String(row.contradictionpackage_count ?? 0)}
          </Text>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {label('contradictionpackage_sum')}
          </Text>
          <Text fw={700} fz="lg" data-testid="package-sum">
            {formatAmount(row.contradictionpackage_sum ?? 0, lang)}
          </Text>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={4}>
            {t('invoices.letter')}
          </Text>
          <Stack gap={6}>
            <SegmentedControl
              size="xs"
              aria-label={t('invoices.letter_language')}
              value={chosenLang}
              onChange={(v) => setLetterLang(v as Language)}
              data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            />
            {late.length > 0 && (
              <Text size="xs" c="orange.8" data-testid="letter-late">
                <IconAlertTriangle size={12} style={{ verticalAlign: 'middle' }} /> {t('invoices.late_hint', { count: late.length })}
              </Text>
            )}
            <Button size="xs" leftSection={<IconFileTypePdf size={14} />} onClick={letter} loading={downloading}>
              {t('invoices.download_letter')}
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
      {row.contradictionpackage_description ? (
        <Paper withBorder p="md" radius="md">
          <Text size="sm">{String(row.contradictionpackage_description)}</Text>
        </Paper>
      ) : null}
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('invoices.package_contradictions')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('invoices.package_hint')}
          </Text>
          {contradictions.isPending && <Loader size="sm" />}
          {contradictions.isError && <Alert color="red">{serverDetail(contradictions.error)}</Alert>}
          {contradictions.data && (
            <ContradictionPicker
              rows={rows}
              picked={inPackage}
              packageId={packageId}
              onToggle={(cid, on) => {
                if (!canPack) return;
                const r = rows.find((x) => Number(x.contradiction_id) === cid);
                setPackage.mutate(
                  { contradiction: { id: cid, rowVersion: Number(r?.row_version ?? 0) || null }, into: on },
                  { onSuccess: () => notifySuccess(t('grid.value_updated')), onError: toastError },
                );
              }}
            />
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

import { Anchor, Badge, Breadcrumbs, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBolt, IconEdit, IconFileImport, IconPlus } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import type { RelationDefinition, Row, TableDefinition } from '../../../lib/table-definition';
import { useDefinition } from '../../tables/api/get-definition';
import { DefinitionError } from '../../tables/components/table-common';
import { serverDetail } from '../../tables/components/table-errors';
import { type Invoice, type StatementDeadline, useInvoice } from '../api/get-invoice';
import { useRunGenerator } from '../api/run-generator';
import { fieldLabel } from '../model/labels';
import { findingsByPosition, formatAmount } from '../model/review';
import { ContradictionsPanel } from './contradictions-panel';
import { PositionsGrid } from './positions-grid';

/** The generic relation tabs the app plugs in below the invoice. */
export type InvoiceRelationTabs = ComponentType<{ table: string; id: string; def: TableDefinition; relations: RelationDefinition[] }>;

/** Relations the page shows itself (above the generic tabs). */
const OWN_RELATIONS = new Set(['invoice_positions_rel', 'invoice_contradiction_rel']);

/** A labelled value of the invoice's header. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Long German labels ("Abrechnungszeitraum von") wrap inside their cell instead of running into the next.
    <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children === null || children === undefined || children === '' ? '–' : children}
      </Text>
    </div>
  );
}

/** One of the invoice's sums. */
function SumCard({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={700} fz="lg" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

/**
 * /app/table/invoice/view/{id}: the invoice review page (issue 14). The
 * header, billing period, contract and areas, the sums, the positions with
 * their inline switches and findings, the contradictions with their points,
 * the contradiction generator, and below the generic tabs of value types,
 * criteria, deadlines, documents, service objects, areas and inspection
 * results. Editing the invoice's own fields is the generic form (?edit=true).
 */
export default function InvoicePage({ relationTabs: RelationTabs }: { relationTabs?: InvoiceRelationTabs }) {
  const { id = '' } = useParams();
  const invoiceId = Number(id);
  const { t } = useTranslation();
  const invoice = useInvoice(invoiceId);
  const def = useDefinition('invoice');
  const positionDef = useDefinition('invoiceposition');
  if (invoice.isPending || def.isPending) return <Loader m="xl" />;
  if (invoice.isError) return <DefinitionError table="invoice" error={invoice.error} record />;
  if (def.isError) return <DefinitionError table="invoice" error={def.error} />;
  const relations = (def.data.relations ?? []).filter((r) => !OWN_RELATIONS.has(r.api));
  return (
    <Stack gap="md" maw={1400}>
      <InvoiceHeader invoice={invoice.data} def={def.data} />
      <InvoiceFacts invoice={invoice.data} def={def.data} />
      <Sums invoice={invoice.data} />
      <Paper withBorder p="md" radius="md">
        <PositionsSection invoice={invoice.data} positionDef={positionDef.data} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('invoices.contradictions')}
        </Title>
        <ContradictionsPanel contradictions={invoice.data.contradictions ?? []} posId={Number(invoice.data.contract?.pos_id ?? 0)} />
      </Paper>
      {RelationTabs && <RelationTabs table="invoice" id={id} def={def.data} relations={relations} />}
    </Stack>
  );
}

function InvoiceHeader({ invoice, def }: { invoice: Invoice; def: TableDefinition }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const generator = useRunGenerator();
  const subject = def.access_subject || def.subject || 'invoice';
  const canUpdate = def.limits.update && ability.can('update', subject);
  const canGenerate = ability.can('create', 'contradiction') && ability.can('create', 'contradictionpoint');
  const title = String(invoice.invoice_number ?? `#${invoice.invoice_id}`);
  const run = () =>
    generator.mutate([invoice.invoice_id], {
      onSuccess: () => notifySuccess(t('invoices.generated')),
      onError: (error) => notifyError(serverDetail(error), t('invoices.generator_error')),
    });
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Stack gap={4} miw={0}>
        <Breadcrumbs>
          <Anchor component={Link} to="/app/table/invoice" size="sm">
            {t('table.invoice')}
          </Anchor>
          <span>{title}</span>
        </Breadcrumbs>
        <Title order={1} size="h2">
          {title}{' '}
          <Text span c="dimmed" fw={500} fz="lg" ml="xs">
            #{invoice.invoice_id}
          </Text>
        </Title>
      </Stack>
      <Group gap="xs">
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to="/app/table/invoice">
          {t('form.back_to_list')}
        </Button>
        {canUpdate && (
          <Button variant="default" leftSection={<IconEdit size={16} />} component={Link} to={`/app/table/invoice/view/${invoice.invoice_id}?edit=true`}>
            {t('form.edit')}
          </Button>
        )}
        {canGenerate && (
          <Button leftSection={<IconBolt size={16} />} onClick={run} loading={generator.isPending}>
            {t('invoices.run_generator')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

function InvoiceFacts({ invoice, def }: { invoice: Invoice; def: TableDefinition }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = (f: string) => fieldLabel(def, f);
  const date = (v: unknown) => (typeof v === 'string' && v ? formatDate(v, lang) : null);
  const contract = invoice.contract;
  const areas = invoice.areas ?? [];
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h5" mb="xs">
          {t('invoices.header')}
        </Title>
        <SimpleGrid cols={2} spacing="xs">
          <Fact label={label('invoice_number')}>{String(invoice.invoice_number ?? '')}</Fact>
          <Fact label={label('invoice_date')}>{date(invoice.invoice_date)}</Fact>
          <Fact label={label('invoice_date_of_order')}>{date(invoice.invoice_date_of_order)}</Fact>
          <Fact label={label('invoice_payment_date')}>{date(invoice.invoice_payment_date)}</Fact>
          <Fact label={label('company_id')}>{String(invoice.company_id__label ?? '')}</Fact>
          <Fact label={label('partnertype_id')}>{String(invoice.partnertype_id__label ?? '')}</Fact>
        </SimpleGrid>
        {invoice.invoice_description ? (
          <Text size="sm" mt="xs">
            {String(invoice.invoice_description)}
          </Text>
        ) : null}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h5" mb="xs">
          {t('invoices.billing_period')}
        </Title>
        <SimpleGrid cols={2} spacing="xs">
          <Fact label={label('invoice_billing_period_from')}>{date(invoice.invoice_billing_period_from)}</Fact>
          <Fact label={label('invoice_billing_period_to')}>{date(invoice.invoice_billing_period_to)}</Fact>
          <Fact label={label('invoice_contract_year')}>{invoice.invoice_contract_year ? String(invoice.invoice_contract_year) : null}</Fact>
          <Fact label={label('invoice_allocationarea')}>{invoice.invoice_allocationarea ? String(invoice.invoice_allocationarea) : null}</Fact>
          <Fact label={label('invoice_received_date')}>{date(invoice.invoice_received_date)}</Fact>
          <Fact label={label('invoice_responsible_user_id')}>
            {invoice.invoice_responsible_user_id__label ? String(invoice.invoice_responsible_user_id__label) : null}
          </Fact>
        </SimpleGrid>
        <StatementDeadlines deadlines={invoice.statement_deadlines ?? []} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h5" mb="xs">
          {t('invoices.contract_and_areas')}
        </Title>
        <Stack gap="xs">
          <Fact label={label('contract_id')}>
            {contract ? (
              <Anchor component={Link} to={`/app/table/contract/view/${String(contract.contract_id)}`} size="sm">
                {String(contract.contract_name ?? invoice.contract_id__label ?? '')}
              </Anchor>
            ) : (
              String(invoice.contract_id__label ?? '')
            )}
          </Fact>
          {contract && <ContractLine contract={contract} />}
          <Fact label={label('area_id')}>
            {areas.length > 0 ? (
              <Group gap={4}>
                {areas.map((a) => (
                  <Badge key={String(a.area_id)} variant="light" component={Link} to={`/app/table/area/view/${String(a.area_id)}`} style={{ cursor: 'pointer' }}>
                    {String(a.area_name ?? a.area_id)}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Fact>
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}

/** The statement's objection and settlement deadlines, each with its rule in words. */
function StatementDeadlines({ deadlines }: { deadlines: StatementDeadline[] }) {
  const { t, i18n } = useTranslation();
  if (deadlines.length === 0) {
    return (
      <Text size="xs" c="dimmed" mt="xs" data-testid="statement-deadlines-empty">
        {t('invoices.deadlines_unknown')}
      </Text>
    );
  }
  return (
    <Stack gap={6} mt="sm" data-testid="statement-deadlines">
      {deadlines.map((d) => (
        <div key={d.kind}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {t(`invoices.deadline_${d.kind}`)}: {formatDate(d.date, i18n.language)}
            </Text>
            {d.passed && (
              <Badge color="red" variant="light" size="sm" tt="none">
                {t('invoices.deadline_passed')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {d.explanation}
          </Text>
        </div>
      ))}
    </Stack>
  );
}

function ContractLine({ contract }: { contract: Row }) {
  const { t } = useTranslation();
  return (
    <Fact label={t('invoices.pos')}>
      {contract.pos_id ? (
        <Anchor component={Link} to={`/app/table/pos/view/${String(contract.pos_id)}`} size="sm">
          {String(contract.pos_id__label ?? contract.pos_id)}
        </Anchor>
      ) : null}
    </Fact>
  );
}

function Sums({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const s = invoice.sums;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      <SumCard label={t('invoices.sum_total')} value={formatAmount(s.amount_total, lang)} testId="invoice-sum-total" />
      <SumCard label={t('invoices.sum_customer')} value={formatAmount(s.amount_customer, lang)} testId="invoice-sum-customer" />
      <SumCard label={t('invoices.sum_claimed')} value={formatAmount(s.claimed, lang)} testId="invoice-sum-claimed" />
      <SumCard label={t('invoices.sum_accepted')} value={formatAmount(s.accepted, lang)} testId="invoice-sum-accepted" />
      <SumCard label={t('invoices.sum_inspection')} value={formatAmount(s.inspection_value, lang)} testId="invoice-sum-inspection" />
      <SumCard label={t('invoices.sum_realised')} value={formatAmount(s.inspection_realised, lang)} testId="invoice-sum-realised" />
    </SimpleGrid>
  );
}

function PositionsSection({ invoice, positionDef }: { invoice: Invoice; positionDef: TableDefinition | undefined }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const canUpdate = Boolean(positionDef?.limits.update) && ability.can('update', positionDef?.access_subject || positionDef?.subject || 'invoiceposition');
  const canCreate = Boolean(positionDef?.limits.create) && ability.can('create', positionDef?.access_subject || positionDef?.subject || 'invoiceposition');
  const findings = findingsByPosition(invoice.contradictions);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('invoices.positions')}
        </Title>
        {canCreate && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPlus size={14} />}
              component={Link}
              to={`/app/table/invoiceposition/create?invoice_id=${invoice.invoice_id}`}
            >
              {t('invoices.add_position')}
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileImport size={14} />}
              component={Link}
              to={`/app/table/invoiceposition/import/${invoice.invoice_id}`}
            >
              {t('invoices.import_positions')}
            </Button>
          </Group>
        )}
      </Group>
      <PositionsGrid
        invoiceId={invoice.invoice_id}
        positions={invoice.positions ?? []}
        sums={invoice.sums}
        findings={findings}
        def={positionDef}
        canUpdate={canUpdate}
      />
      {(findings.get(0) ?? []).length > 0 && (
        <Text size="sm" c="orange">
          {t('invoices.invoice_findings', { count: (findings.get(0) ?? []).length })}
        </Text>
      )}
    </Stack>
  );
}

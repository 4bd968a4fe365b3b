import { Alert, Anchor, Breadcrumbs, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { invalidateRecord } from '../../../lib/record-keys';
import { ImportWizard } from '../../imports/components/import-wizard';
import { DefinitionError } from '../../tables/components/table-common';
import { useInvoice } from '../api/get-invoice';

/** The tables whose rows are imported into an invoice. */
const INTO_INVOICE = new Set(['invoiceposition']);

/**
 * /app/table/invoiceposition/import/{invoice}: the positions of one invoice
 * from an XLSX or CSV file, through the one import pipeline (decisions 0017,
 * 0024): the invoice is fixed by the route, the columns are mapped (the
 * mapping remembered per user), every row's errors are shown before
 * anything is written, and the rows are written all together or not at all.
 */
export default function PositionImportPage() {
  const { t } = useTranslation();
  const { table = '', invoice = '' } = useParams();
  const invoiceId = Number(invoice);
  const client = useQueryClient();
  const answer = useInvoice(INTO_INVOICE.has(table) ? invoiceId : 0);
  if (!INTO_INVOICE.has(table)) {
    return (
      <Alert color="yellow" m="md" title={t('invoices.import_not_here')}>
        {t('invoices.import_not_here_detail', { table })}
      </Alert>
    );
  }
  if (answer.isPending) return <Loader m="xl" />;
  if (answer.isError) return <DefinitionError table="invoice" error={answer.error} record />;
  const title = String(answer.data.invoice_number ?? `#${invoiceId}`);
  return (
    <Stack gap="md" maw={1200}>
      <Stack gap={4}>
        <Breadcrumbs>
          <Anchor component={Link} to="/app/table/invoice" size="sm">
            {t('table.invoice')}
          </Anchor>
          <Anchor component={Link} to={`/app/table/invoice/view/${invoiceId}`} size="sm">
            {title}
          </Anchor>
          <span>{t('invoices.import_positions')}</span>
        </Breadcrumbs>
        <Title order={1} size="h2">
          {t('invoices.import_positions_into', { invoice: title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('invoices.import_hint')}
        </Text>
      </Stack>
      <ImportWizard entity="invoiceposition" parentId={invoiceId} onCommitted={() => void invalidateRecord(client, 'invoice', invoiceId)} />
      <div>
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to={`/app/table/invoice/view/${invoiceId}`}>
          {t('invoices.back_to_invoice')}
        </Button>
      </div>
    </Stack>
  );
}

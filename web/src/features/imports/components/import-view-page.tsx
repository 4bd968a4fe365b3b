import { Alert, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { IMPORTABLE } from '../model/types';
import { ImportWizard } from './import-wizard';

/** /app/table/{name}/importview: the import of one spreadsheet into that table. */
export default function ImportViewPage() {
  const { t } = useTranslation();
  const { name = '' } = useParams();
  const importable = (IMPORTABLE as readonly string[]).includes(name);
  return (
    <Stack gap="md">
      <Title order={2}>{t('import.into', { table: t(`table.${name}`) })}</Title>
      {importable ? <ImportWizard entity={name} /> : <Alert color="gray">{t('import.not_importable')}</Alert>}
    </Stack>
  );
}

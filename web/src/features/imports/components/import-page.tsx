import { Select, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORTABLE } from '../model/types';
import { ImportWizard } from './import-wizard';

/** /app/import: choose what to import, then the import of one spreadsheet. */
export default function ImportPage() {
  const { t } = useTranslation();
  const [entity, setEntity] = useState<string | null>(null);
  return (
    <Stack gap="md">
      <Title order={2}>{t('screen.import')}</Title>
      <Select
        label={t('import.entity')}
        placeholder={t('import.choose_entity')}
        data={IMPORTABLE.map((e) => ({ value: e, label: t(`table.${e}`) }))}
        value={entity}
        onChange={setEntity}
        maw={360}
      />
      {entity && <ImportWizard key={entity} entity={entity} />}
    </Stack>
  );
}

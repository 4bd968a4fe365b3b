import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { serverDetail } from './table-errors';

/** The translated name of a table (table.<name>), else the name. */
export function tableLabel(t: TFunction, table: string): string {
  const key = `table.${table}`;
  const text = t(key);
  return text === key ? table : text;
}

/** The title of a new record's form: "New contract" (the entity's singular name), else "New: <table>". */
export function newRecordTitle(t: TFunction, table: string): string {
  const key = `entity.${table}`;
  const entity = t(key);
  return entity === key ? t('form.new_record', { table: tableLabel(t, table) }) : t('form.new_entity', { entity });
}

/** The definition could not be loaded: unknown table, no right, or a server error. */
export function DefinitionError({ table, error, record }: { table: string; error: unknown; record?: boolean }) {
  const { t } = useTranslation();
  const notFound = error instanceof ApiError && error.status === 404;
  const missing = record ? t('grid.record_not_found') : t('grid.unknown_table', { table });
  // The page keeps a heading: the list the record belongs to ("Page not found" for an unknown table).
  const heading = notFound && !record ? t('status.not_found.title') : tableLabel(t, table);
  return (
    <Stack gap={0}>
      <Title order={1} size="h2" mx="md" mt="md">
        {heading}
      </Title>
      <Alert color={notFound ? 'yellow' : 'red'} title={notFound ? missing : t('grid.load_failed')} m="md">
        <Stack gap="xs" align="flex-start">
          {!notFound && <Text size="sm">{serverDetail(error)}</Text>}
          <Button component={Link} to="/app" variant="light" size="xs">
            {t('general.home')}
          </Button>
        </Stack>
      </Alert>
    </Stack>
  );
}

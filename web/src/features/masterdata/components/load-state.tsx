import { Alert, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';

/**
 * What a record page shows before its record is there: a loader while it
 * loads, 'not found' for a 404 (a record of another tenant answers the same),
 * the server's message for anything else; null once the record is loaded.
 */
export function LoadState({ query }: { query: { isPending: boolean; isError: boolean; error: unknown } }) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader m="xl" aria-label={t('general.loading')} />;
  if (!query.isError) return null;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Alert color="red" m="md" title={missing ? t('masterdata.not_found') : t('masterdata.load_error')}>
      {missing ? null : errorMessage(query.error)}
    </Alert>
  );
}

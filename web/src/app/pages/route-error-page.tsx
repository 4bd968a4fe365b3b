import { Button } from '@mantine/core';
import { IconAlertTriangle, IconHome, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { StatusPage } from '../../components/status-page';
import { isChunkLoadError } from '../../lib/lazy-import';

/**
 * Error element of the routes. A route chunk that failed to load (or took
 * over 120 s) gets the loader error with a Reload action.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const reload = () => window.location.reload();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusPage
        icon={<IconAlertTriangle size={36} />}
        code="404"
        title={t('status.not_found.title')}
        text={t('status.not_found.text')}
        actions={
          <Button component={Link} to="/" leftSection={<IconHome size={16} />}>
            {t('general.home')}
          </Button>
        }
      />
    );
  }
  const chunk = isChunkLoadError(error);
  if (!chunk) console.error(error);
  return (
    <StatusPage
      icon={<IconAlertTriangle size={36} />}
      color="red"
      title={chunk ? t('status.load_error.title') : t('general.error')}
      text={chunk ? t('status.load_error.text') : t('status.unexpected.text')}
      actions={
        <Button onClick={reload} leftSection={<IconRefresh size={16} />}>
          {t('general.reload')}
        </Button>
      }
    />
  );
}

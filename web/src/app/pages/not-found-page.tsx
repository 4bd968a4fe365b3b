import { Button } from '@mantine/core';
import { IconHome, IconMapQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusPage } from '../../components/status-page';
import { useSession } from '../../lib/use-session';

/** /error-404: where unknown paths end. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { tokens } = useSession();
  return (
    <StatusPage
      icon={<IconMapQuestion size={36} />}
      color="gray"
      code="404"
      title={t('status.not_found.title')}
      text={t('status.not_found.text')}
      actions={
        <Button component={Link} to={tokens ? '/app' : '/login'} leftSection={<IconHome size={16} />}>
          {tokens ? t('general.home') : t('status.to_login')}
        </Button>
      }
    />
  );
}

export default NotFoundPage;

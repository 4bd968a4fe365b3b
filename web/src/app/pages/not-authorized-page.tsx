import { Button } from '@mantine/core';
import { IconHome, IconLock, IconLogin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusPage } from '../../components/status-page';
import { useSession } from '../../lib/use-session';

/** /not-authorized: the user is logged in but lacks the right for the page. */
export function NotAuthorizedPage() {
  const { t } = useTranslation();
  const { tokens } = useSession();
  return (
    <StatusPage
      icon={<IconLock size={36} />}
      color="red"
      code="403"
      title={t('status.not_authorized.title')}
      text={t('status.not_authorized.text')}
      actions={
        tokens ? (
          <Button component={Link} to="/app" leftSection={<IconHome size={16} />}>
            {t('general.home')}
          </Button>
        ) : (
          <Button component={Link} to="/login" leftSection={<IconLogin size={16} />}>
            {t('auth.login.submit')}
          </Button>
        )
      }
    />
  );
}

export default NotAuthorizedPage;

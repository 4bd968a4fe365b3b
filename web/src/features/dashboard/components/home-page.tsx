import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconLayoutGrid, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { useSession } from '../../../lib/use-session';

/** /app: the dashboard home, the landing page after login. */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const name = user?.user_firstname?.trim() || user?.user_email || '';
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {t('home.greeting', { name })}
        </Title>
        <Text c="dimmed" mt={4}>
          {t('home.today', { date: formatDate(new Date().toISOString().slice(0, 10), i18n.language) })}
        </Text>
      </div>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('home.start_title')}
          </Title>
          <Text>{t('home.start_text')}</Text>
          <Group gap="sm">
            <Button component={Link} to="/app/menu" leftSection={<IconLayoutGrid size={16} />}>
              {t('layout.menu_page')}
            </Button>
            <Button component={Link} to="/app/user/profile" variant="default" leftSection={<IconUserCircle size={16} />}>
              {t('layout.profile')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title={t('home.widgets_title')}>
        {t('home.widgets_text')}
      </Alert>
    </Stack>
  );
}

export default HomePage;

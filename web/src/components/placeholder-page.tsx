import { Button, Code, Group, Text } from '@mantine/core';
import { IconArrowLeft, IconHammer, IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { StatusPage } from './status-page';

export interface PlaceholderPageProps {
  /** The name of the screen, already translated. */
  screen: string;
  /** An optional line under the title, e.g. the record being viewed. */
  detail?: string;
}

/**
 * The honest page of a screen that a later release builds: it names the
 * screen and its route, and offers a way back.
 */
export function PlaceholderPage({ screen, detail }: PlaceholderPageProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <StatusPage
      icon={<IconHammer size={36} />}
      color="orange"
      code={t('placeholder.badge')}
      title={screen}
      text={
        <>
          <Text component="span" display="block">
            {t('placeholder.text')}
          </Text>
          {detail ? (
            <Text component="span" display="block" mt="xs">
              {detail}
            </Text>
          ) : null}
          <Group component="span" justify="center" gap={6} mt="sm">
            <Text component="span" fz="sm">
              {t('placeholder.route')}
            </Text>
            <Code>{location.pathname + location.search}</Code>
          </Group>
        </>
      }
      actions={
        <>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(-1)}>
            {t('general.back')}
          </Button>
          <Button component={Link} to="/app" leftSection={<IconHome size={16} />}>
            {t('general.home')}
          </Button>
        </>
      }
    />
  );
}

import { Anchor, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../lib/ability-context';
import { SoonBadge } from '../layouts/soon-badge';
import { isComingSoon, visibleMenu } from '../menu';

/** /app/menu: the same entries as the menu, as tiles. */
export function MenuPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const sections = useMemo(() => visibleMenu(ability), [ability]);
  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {t('menu_page.title')}
      </Title>
      {sections.length === 0 ? <Text c="dimmed">{t('menu_page.empty')}</Text> : null}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md">
        {sections.map((section) => {
          const SectionIcon = section.icon;
          return (
            <Card key={section.id} withBorder radius="md" padding="lg" component="section" aria-labelledby={`tile-${section.id}`}>
              <Group gap="sm" mb="sm" wrap="nowrap">
                <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
                  <SectionIcon size={20} />
                </ThemeIcon>
                <Title order={2} fz="lg" id={`tile-${section.id}`}>
                  {t(section.labelKey)}
                </Title>
              </Group>
              <Stack gap={4}>
                {section.entries.map((entry) => (
                  <Anchor key={`${section.id}-${entry.id}`} component={Link} to={entry.to} fz="sm">
                    <Group gap={4} wrap="nowrap">
                      <IconChevronRight size={14} aria-hidden />
                      {t(entry.labelKey)}
                      {isComingSoon(entry) && <SoonBadge />}
                    </Group>
                  </Anchor>
                ))}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

export default MenuPage;

import { Anchor, Card, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAbility } from '../../lib/ability-context';
import { matchesSearch } from '../menu-search-text';
import { visibleMasterData } from '../menu';

/** /app/master-data: every master-data screen the user may open, searchable by name. */
export function MasterDataPage() {
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const [search, setSearch] = useState('');
  const entries = useMemo(
    () =>
      visibleMasterData(ability)
        .map((entry) => ({ entry, label: t(entry.labelKey) }))
        .sort((a, b) => a.label.localeCompare(b.label, i18n.language)),
    [ability, t, i18n.language],
  );
  const shown = entries.filter((e) => matchesSearch(e.label, search));
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('master_data_page.title')}
      </Title>
      <TextInput
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('master_data_page.search_placeholder')}
        aria-label={t('master_data_page.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
        autoFocus
      />
      {shown.length === 0 ? (
        <Text c="dimmed">{entries.length === 0 ? t('master_data_page.empty') : t('master_data_page.nothing_found')}</Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map(({ entry, label }) => (
            <Card component="li" key={entry.id} withBorder radius="md" padding="sm">
              <Anchor component={Link} to={entry.to} fw={500}>
                {label}
              </Anchor>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

export default MasterDataPage;

import { Badge, Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A list's title with its row count (when known), as every list page shows it. */
export function ListHeading({ title, total }: { title: string; total?: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Group gap="xs">
      <Title order={1} size="h2">
        {title}
      </Title>
      {total !== undefined && (
        <Badge variant="light" size="lg" aria-label={t('grid.row_count', { count: total })}>
          {total.toLocaleString(i18n.language)}
        </Badge>
      )}
    </Group>
  );
}

import { Badge, Group, Title, Tooltip } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A list's title with its row count (when known), as every list page shows it.
 * A count made earlier and being made again (totalAsOf, decision 0057) says so.
 */
export function ListHeading({ title, total, totalAsOf }: { title: string; total?: number; totalAsOf?: string }) {
  const { t, i18n } = useTranslation();
  const asOf = totalAsOf ? new Date(totalAsOf).toLocaleTimeString(i18n.language) : undefined;
  const count = total !== undefined && (
    <Badge
      variant="light"
      size="lg"
      color={asOf ? 'gray' : undefined}
      leftSection={asOf ? <IconClockHour4 size={14} aria-hidden /> : undefined}
      aria-label={
        t('grid.row_count', { count: total }) + (asOf ? ` (${t('grid.row_count_as_of', { time: asOf })})` : '')
      }
    >
      {total.toLocaleString(i18n.language)}
    </Badge>
  );
  return (
    <Group gap="xs">
      <Title order={1} size="h2">
        {title}
      </Title>
      {asOf ? <Tooltip label={t('grid.row_count_as_of', { time: asOf })}>{count}</Tooltip> : count}
    </Group>
  );
}

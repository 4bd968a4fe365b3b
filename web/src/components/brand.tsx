import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';

/** The product name; shown in headers and on the authentication pages. */
export const PRODUCT_NAME = 'Portfolio';

export function Brand({ size = 'md' }: { size?: 'md' | 'lg' }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={size === 'lg' ? 40 : 32} radius="md" variant="filled" aria-hidden>
        <IconBuildingSkyscraper size={size === 'lg' ? 24 : 20} />
      </ThemeIcon>
      <Text fw={700} fz={size === 'lg' ? 24 : 18} component="span">
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}

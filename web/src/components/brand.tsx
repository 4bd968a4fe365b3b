import { Group, type MantineBreakpoint, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';

/** The product name; shown in headers and on the authentication pages. */
export const PRODUCT_NAME = 'Portfolio';

/** `nameFrom`: the name shows from this breakpoint on (a phone's header keeps the icon only). */
export function Brand({ size = 'md', nameFrom }: { size?: 'md' | 'lg'; nameFrom?: MantineBreakpoint }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={size === 'lg' ? 40 : 32} radius="md" variant="filled" aria-hidden>
        <IconBuildingSkyscraper size={size === 'lg' ? 24 : 20} />
      </ThemeIcon>
      <Text fw={700} fz={size === 'lg' ? 24 : 18} component="span" visibleFrom={nameFrom}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}

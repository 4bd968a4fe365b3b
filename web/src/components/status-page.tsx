import { Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface StatusPageProps {
  icon: ReactNode;
  color?: string;
  /** A short code such as 404, shown above the title. */
  code?: string;
  title: string;
  text: ReactNode;
  actions?: ReactNode;
}

/** A page that explains a state (not found, not authorized, coming soon, load error). */
export function StatusPage({ icon, color = 'blue', code, title, text, actions }: StatusPageProps) {
  return (
    <Center py="xl" px="md" mih="60vh">
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={560} w="100%" shadow="sm">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={72} radius={72} variant="light" color={color} aria-hidden>
            {icon}
          </ThemeIcon>
          {code ? (
            <Text c="dimmed" fw={700} fz="sm" tt="uppercase" lts={2}>
              {code}
            </Text>
          ) : null}
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {title}
          </Title>
          <Text c="dimmed">{text}</Text>
          {actions ? (
            <Group justify="center" mt="sm">
              {actions}
            </Group>
          ) : null}
        </Stack>
      </Paper>
    </Center>
  );
}


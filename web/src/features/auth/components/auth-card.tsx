import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Brand } from '../../../components/brand';

/** The frame of every authentication page. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Center mih="calc(100vh - 120px)">
      <Stack w="100%" maw={440} gap="lg">
        <Center>
          <Brand size="lg" />
        </Center>
        <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
          <Stack gap="md">
            <div>
              <Title order={1} fz={{ base: 22, sm: 26 }}>
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" fz="sm" mt={4}>
                  {subtitle}
                </Text>
              ) : null}
            </div>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}

import { Center, Loader, Stack, Text } from '@mantine/core';

/** A centred loader filling the page, for start-up and lazy pages. */
export function FullPageLoader({ label }: { label?: string }) {
  return (
    <Center mih="100vh" w="100%" role="status" aria-live="polite" aria-busy="true">
      <Stack align="center" gap="sm">
        <Loader type="dots" size="lg" aria-hidden />
        {/* The label is English-free where possible: callers pass a translated text. */}
        {label ? <Text c="dimmed">{label}</Text> : null}
      </Stack>
    </Center>
  );
}

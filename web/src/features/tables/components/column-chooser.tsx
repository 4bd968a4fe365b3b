import { ActionIcon, Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AttributeDefinition } from '../../../lib/table-definition';
import { defaultColumns, type KeyFields } from './columns';

export interface ColumnChooserProps {
  attributes: AttributeDefinition[];
  /** The entity's id and label fields (the default columns, the "#" title). */
  keys?: KeyFields;
  visible: string[];
  onChange: (columns: string[] | null) => void;
}

/** Chooses the visible columns and their order (up/down). */
export function ColumnChooser({ attributes, visible, onChange, keys = {} }: ColumnChooserProps) {
  const { t } = useTranslation();
  const byName = new Map(attributes.map((a) => [a.attribute, a]));
  // Visible columns first, in their order; then the hidden ones.
  const ordered = [...visible.filter((c) => byName.has(c)), ...attributes.map((a) => a.attribute).filter((c) => !visible.includes(c))];
  const move = (name: string, delta: number) => {
    const list = [...visible];
    const i = list.indexOf(name);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= list.length) return;
    [list[i], list[j]] = [list[j], list[i]];
    onChange(list);
  };
  const toggle = (name: string, on: boolean) => {
    const list = on ? [...visible, name] : visible.filter((c) => c !== name);
    if (list.length > 0) onChange(list);
  };
  const isDefault = visible.join(',') === defaultColumns(attributes, keys).join(',');
  return (
    <Popover position="bottom-end" withinPortal shadow="md" width={320}>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          {t('grid.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <ScrollArea.Autosize mah={380}>
          <Stack gap={4} role="list" aria-label={t('grid.columns')}>
            {ordered.map((name) => {
              const on = visible.includes(name);
              const index = visible.indexOf(name);
              const label = name === keys.primaryKey ? '#' : (byName.get(name)?.attribute_i18n ?? name);
              return (
                <Group key={name} justify="space-between" wrap="nowrap" role="listitem">
                  <Checkbox label={label} checked={on} onChange={(e) => toggle(name, e.currentTarget.checked)} />
                  {on && (
                    <Group gap={2} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t('grid.move_up', { column: label })}
                        disabled={index === 0}
                        onClick={() => move(name, -1)}
                      >
                        <IconArrowUp size={14} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t('grid.move_down', { column: label })}
                        disabled={index === visible.length - 1}
                        onClick={() => move(name, 1)}
                      >
                        <IconArrowDown size={14} />
                      </ActionIcon>
                    </Group>
                  )}
                </Group>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="space-between" mt="xs">
          <Text size="xs" c="dimmed">
            {t('grid.columns_shown', { count: visible.length })}
          </Text>
          <Button size="xs" variant="subtle" disabled={isDefault} onClick={() => onChange(null)}>
            {t('grid.columns_reset')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

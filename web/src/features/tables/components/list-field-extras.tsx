import { ActionIcon, Loader, Menu, Paper, Text } from '@mantine/core';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelFieldsOf } from '../../../components/form/remote-select';
import { useAbility } from '../../../lib/ability-context';
import { rowLabel } from '../../../lib/data-provider';
import type { AttributeDefinition } from '../../../lib/table-definition';
import { useDefinition } from '../api/get-definition';
import { acceptPopupMessage } from '../popup-message';
import { RecordEditor } from './record-editor';

export interface ListFieldExtrasProps {
  attr: AttributeDefinition;
  onCreated: (id: number, label: string) => void;
}

/** "Create New Element" (a sub-form, never required) and the popup window next to a list field. */
export function ListFieldExtras({ attr, onCreated }: ListFieldExtrasProps) {
  const { t } = useTranslation();
  const ability = useAbility();
  const client = useQueryClient();
  const [inline, setInline] = useState(false);
  const ref = attr.ref;

  useEffect(() => {
    if (!ref) return;
    const onMessage = (event: MessageEvent) => {
      const message = acceptPopupMessage(event);
      if (!message || message.list !== attr.attribute || message.table !== ref.table) return;
      void client.invalidateQueries({ queryKey: ['tables', 'options', ref.table] });
      onCreated(message.id, message.label);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [ref, attr.attribute, client, onCreated]);

  if (!ref || !ability.can('create', ref.table)) return null;
  const openPopup = () => {
    window.open(`/app/table/${ref.table}/popup/${attr.attribute}`, `portfolio-popup-${attr.attribute}`, 'popup,width=760,height=820');
  };
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label={t('form.new_element_for', { field: attr.attribute_i18n })}>
            <IconPlus size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconPlus size={14} />} onClick={() => setInline(true)} disabled={inline}>
            {t('form.create_new_element')}
          </Menu.Item>
          <Menu.Item leftSection={<IconExternalLink size={14} />} onClick={openPopup}>
            {t('form.open_popup')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {inline && (
        // The inline sub-form: its own fields and Create button, never part of
        // the outer form's requirements.
        <Paper withBorder p="sm" radius="sm" style={{ flexBasis: '100%' }} bg="var(--mantine-color-default-hover)">
          <Text size="sm" fw={600} mb="xs">
            {t('form.create_new_element')}: {attr.attribute_i18n}
          </Text>
          <InlineCreate
            title={`${t('form.create_new_element')}: ${attr.attribute_i18n}`}
            table={ref.table}
            onCancel={() => setInline(false)}
            onCreated={(id, label) => {
              setInline(false);
              void client.invalidateQueries({ queryKey: ['tables', 'options', ref.table] });
              onCreated(id, label);
            }}
            labelFields={labelFieldsOf(ref)}
            keyField={ref.key}
          />
        </Paper>
      )}
    </>
  );
}

function InlineCreate({
  title,
  table,
  onCancel,
  onCreated,
  labelFields,
  keyField,
}: {
  title: string;
  table: string;
  onCancel: () => void;
  onCreated: (id: number, label: string) => void;
  labelFields: string[];
  keyField: string;
}) {
  const definition = useDefinition(table);
  if (!definition.data) return <Loader />;
  return (
    <RecordEditor
      table={table}
      def={definition.data}
      mode="create"
      columns={1}
      nested={false}
      embedded={title}
      onCancel={onCancel}
      onSaved={(row) => onCreated(Number(row[keyField]), rowLabel(row, labelFields) || String(row[keyField]))}
    />
  );
}

import { Alert, Container, Loader, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { labelFieldsOf } from '../../../components/form/remote-select';
import { rowLabel } from '../../../lib/data-provider';
import { useDefinition } from '../api/get-definition';
import type { PopupCreatedMessage } from '../popup-message';
import { RecordEditor } from './record-editor';
import { DefinitionError, newRecordTitle } from './table-common';

/**
 * /app/table/{table}/popup/{list}: the chrome-less create form of a related
 * entity. On success it posts a typed message to its opener (same origin only),
 * which reloads the list field {list} and selects the new element.
 */
export default function PopupPage() {
  const { table = '', list = '' } = useParams();
  const { t } = useTranslation();
  const definition = useDefinition(table);
  const [done, setDone] = useState<string | null>(null);
  if (definition.isPending) return <Loader m="xl" />;
  if (definition.isError) return <DefinitionError table={table} error={definition.error} />;
  const def = definition.data;
  return (
    <Container size="sm" py="md">
      <Stack gap="md">
        <Title order={1} size="h3">
          {newRecordTitle(t, table)}
        </Title>
        {done ? (
          <Alert color="teal" role="status">
            {t('form.popup_done', { name: done })}
          </Alert>
        ) : (
          <Paper withBorder p="md" radius="md">
            <RecordEditor
              table={table}
              def={def}
              mode="create"
              columns={1}
              nested={false}
              onCancel={() => window.close()}
              onSaved={(row) => {
                const id = Number(row[def.primary_key]);
                const label = rowLabel(row, def.label.length ? def.label : labelFieldsOf({ table, key: def.primary_key, label: [] })) || String(id);
                const message: PopupCreatedMessage = { type: 'portfolio:popup-created', table, list, id, label };
                const opener = window.opener as Window | null;
                if (opener && !opener.closed) {
                  opener.postMessage(message, window.location.origin);
                  window.close();
                }
                setDone(label);
              }}
            />
          </Paper>
        )}
      </Stack>
    </Container>
  );
}

import { Anchor, Breadcrumbs, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export interface PageHeaderProps {
  /** The list this record belongs to: /app/table/{table}. */
  table: string;
  listLabel: string;
  title: string;
  /** Shown when the record may be changed and is not being edited. */
  onEdit?: () => void;
}

/** The page title under the breadcrumbs back to the list. */
function TitleWithCrumbs({ table, listLabel, title }: { table: string; listLabel: string; title: string }) {
  return (
    <Stack gap={4}>
      <Breadcrumbs>
        <Anchor component={Link} to={`/app/table/${table}`} size="sm">
          {listLabel}
        </Anchor>
        <span>{title}</span>
      </Breadcrumbs>
      <Title order={1}>{title}</Title>
    </Stack>
  );
}

/** Breadcrumbs, title, back to the list and the edit button of a custom record page. */
export function PageHeader({ table, listLabel, title, onEdit }: PageHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-end">
      <TitleWithCrumbs table={table} listLabel={listLabel} title={title} />
      <Group gap="xs">
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} component={Link} to={`/app/table/${table}`}>
          {t('form.back_to_list')}
        </Button>
        {onEdit && (
          <Button variant="default" leftSection={<IconEdit size={16} />} onClick={onEdit}>
            {t('form.edit')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

export interface NewRecordPageProps {
  /** The list the new record belongs to: /app/table/{table}. */
  table: string;
  listLabel: string;
  title: string;
  children: ReactNode;
}

/** The frame of a custom create page: breadcrumbs back to the list, the title and the form's paper. */
export function NewRecordPage({ table, listLabel, title, children }: NewRecordPageProps) {
  return (
    <Stack gap="md" maw={1200}>
      <TitleWithCrumbs table={table} listLabel={listLabel} title={title} />
      <Paper withBorder p="lg" radius="md">
        {children}
      </Paper>
    </Stack>
  );
}

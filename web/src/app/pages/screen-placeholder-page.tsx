import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PlaceholderPage } from '../../components/placeholder-page';
import type { TableRouteKind } from '../guards/access';

/** Placeholder of a named screen, e.g. the ticket dashboard. */
export function NamedPlaceholderPage({ screenKey }: { screenKey: string }) {
  const { t } = useTranslation();
  const params = useParams();
  const detail = params.id ? t('placeholder.record', { id: params.id }) : undefined;
  return <PlaceholderPage screen={t(screenKey)} detail={detail} />;
}

/** Placeholder of a table screen (list, view, create, kanban, import, popup) naming the table. */
export function TablePlaceholderPage({ kind, table }: { kind: TableRouteKind; table?: string }) {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const name = table ?? params.table ?? params.name ?? '';
  const tableLabel = i18n.exists(`table.${name}`) ? t(`table.${name}`) : name;
  const editing = kind === 'view' && search.get('edit') === 'true';
  const screen = t(editing ? 'screen.table_edit' : `screen.table_${kind}`, { table: tableLabel });
  let detail: string | undefined;
  if (params.id) detail = t('placeholder.record', { id: params.id });
  if (params.invoice) detail = t('placeholder.invoice', { id: params.invoice });
  if (params.list) detail = t('placeholder.related', { list: params.list });
  return <PlaceholderPage screen={screen} detail={detail} />;
}

import { Alert, Group, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useBoards } from '../api/get-boards';

/**
 * /app/table/board/kanban: the kanban of the first board the caller may see
 * (where the FM team lands), or a note when there is none.
 */
export default function BoardsLanding() {
  const { t } = useTranslation();
  const boards = useBoards();
  if (boards.isError) return <Alert color="red">{t('kanban.load_failed')}</Alert>;
  if (!boards.data) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label={t('kanban.loading')} />
      </Group>
    );
  }
  const first = boards.data[0];
  if (!first) return <Alert color="gray">{t('kanban.no_boards')}</Alert>;
  return <Navigate to={`/app/table/board/${first.board_id}/kanban`} replace />;
}

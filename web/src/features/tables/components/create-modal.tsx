import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Row, TableDefinition } from '../../../lib/table-definition';
import { RecordEditor } from './record-editor';
import { newRecordTitle } from './table-common';

export interface CreateModalProps {
  table: string;
  def: TableDefinition;
  onClose: () => void;
  onCreated: (row: Row) => void;
}

/** Create in a modal over the list (points of sale). */
export function CreateModal({ table, def, onClose, onCreated }: CreateModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={newRecordTitle(t, table)} size="xl" closeOnClickOutside={false}>
      <RecordEditor table={table} def={def} mode="create" onCancel={onClose} onSaved={onCreated} />
    </Modal>
  );
}

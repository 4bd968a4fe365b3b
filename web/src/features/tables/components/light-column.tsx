import { Badge } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { DataTableColumn } from '../../../components/data-table/data-table';
import type { Row } from '../../../lib/table-definition';
import { daysUntil, EXPIRED_FIELD, type Light, lightOf, type LightThresholds, NOTICE_FIELD, STATUS_FIELD } from './traffic-light';

const LIGHT_COLORS: Record<Light, string> = { red: 'red', yellow: 'yellow', green: 'green' };

/** The light's words, so it never speaks through colour alone: "Urgent · in 12 days". */
export function lightText(t: TFunction, light: Light | null, days: number | null): string {
  if (!light || days === null) return '';
  const when = days < 0 ? t('grid.light_overdue', { count: -days }) : t('grid.light_in_days', { count: days });
  return `${t(`grid.light_${light}`)} · ${when}`;
}

/**
 * The fields a light reads: the date, and the status and used-up flag
 * where the rows have them (a statement's deadline has neither: it lights
 * while it has a date).
 */
export interface LightFields {
  date: string;
  status?: string;
  expired?: string;
}

const DEADLINE_LIGHT: LightFields = { date: NOTICE_FIELD, status: STATUS_FIELD, expired: EXPIRED_FIELD };

/** The traffic-light column of a list of deadlines (by default contract deadlines: notice date, status and used up). */
export function lightColumn(t: TFunction, thresholds: LightThresholds, today: Date, fields: LightFields = DEADLINE_LIGHT): DataTableColumn {
  const light = (row: Row) =>
    lightOf(row[fields.date], fields.status ? row[fields.status] : 'active', today, thresholds, fields.expired ? row[fields.expired] : 0);
  return {
    id: 'traffic_light',
    header: t('grid.light'),
    // "Urgent · 906 days overdue" in full.
    width: 240,
    // The badge needs no more room; the spare room goes to the contract and point of sale.
    grow: false,
    text: (row) => lightText(t, light(row), daysUntil(row[fields.date], today)),
    render: (row, text) => {
      const l = light(row);
      if (!l) return null;
      return (
        <Badge
          color={LIGHT_COLORS[l]}
          variant={l === 'yellow' ? 'filled' : 'light'}
          autoContrast
          radius="sm"
          tt="none"
          fw={600}
          data-light={l}
        >
          {text}
        </Badge>
      );
    },
  };
}

import { i18n } from '../../../lib/i18n-instance';
import type { RecordExtraTabs } from '../../tables/components/record-page';
import { PaymentAdjustmentsTab } from './payment-adjustments-tab';
import { ScheduleTab } from './schedule-tab';

/** The recurring payment's page: its index adjustments stand in for the generic adjustments relation tab. */
export const paymentTabs: RecordExtraTabs = (id, row) => [
  {
    value: 'adjustments',
    label: i18n.t('indexation.adjustments_tab'),
    replaces: 'recurringpayment_adjustments_rel',
    panel: <PaymentAdjustmentsTab id={id} row={row} />,
  },
];

/** The contract's page: its payment schedule. */
export const contractTabs: RecordExtraTabs = (id) => [
  { value: 'schedule', label: i18n.t('indexation.schedule_tab'), panel: <ScheduleTab id={id} /> },
];

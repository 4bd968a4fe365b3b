import { describe, expect, it } from 'vitest';
import { activeWindow, daysUntil, isoDay, lightOf, NOTICE_FIELD, OVERDUE_DEADLINE, STATUS_FIELD, windowFilter, withWindow } from './traffic-light';

// A local noon, so no time zone moves the day.
const today = new Date(2027, 2, 31, 12, 0, 0);

describe('lightOf', () => {
  it.each([
    ['2027-03-01', 'active', 'red'], // past
    ['2027-03-31', 'active', 'red'], // today
    ['2027-04-30', 'active', 'red'], // 30 days: still red
    ['2027-05-01', 'active', 'yellow'], // 31 days
    ['2027-06-29', 'active', 'yellow'], // 90 days
    ['2027-06-30', 'active', 'green'], // 91 days
    ['2029-01-01', 'active', 'green'],
    ['2027-04-01', 'unactive', null], // only active deadlines light
    ['2027-04-01', 'cancelled', null],
    [null, 'active', null], // no notice date
    ['not a date', 'active', null],
  ])('%s %s → %s', (notice, status, light) => {
    expect(lightOf(notice, status, today)).toBe(light);
  });

  it('takes the server thresholds', () => {
    expect(lightOf('2027-04-10', 'active', today, { red_days: 7, yellow_days: 14 })).toBe('yellow');
    expect(lightOf('2027-04-20', 'active', today, { red_days: 7, yellow_days: 14 })).toBe('green');
  });

  it('gives a used-up deadline no light', () => {
    // Its last option's notice date passed, or an active option lapsed (decision 0008).
    expect(lightOf('2027-03-01', 'active', today, undefined, 1)).toBeNull();
    expect(lightOf('2027-03-01', 'active', today, undefined, 0)).toBe('red');
  });

  it('counts calendar days across month ends and leap years', () => {
    expect(daysUntil('2028-03-01', new Date(2028, 1, 28, 23, 0))).toBe(2);
    expect(daysUntil('2027-03-30', today)).toBe(-1);
  });
});

describe('notice-date windows', () => {
  it('sets a between filter from today on', () => {
    expect(windowFilter(90, today)).toEqual({ field: NOTICE_FIELD, op: 'between', value: ['2027-03-31', '2027-06-29'] });
    expect(isoDay(today, 365)).toBe('2028-03-30');
  });

  it('keeps the other filters and replaces an earlier notice-date condition', () => {
    const status = { field: 'contractaction_status', op: 'eq' as const, value: 'active' };
    const old = { field: NOTICE_FIELD, op: 'gte' as const, value: '2020-01-01' };
    const next = withWindow([status, old], 30, today);
    expect(next).toEqual([status, windowFilter(30, today)]);
    expect(withWindow(next, null, today)).toEqual([status]);
  });

  it('recognizes the window the filters hold today', () => {
    expect(activeWindow(withWindow([], 365, today), today)).toBe(365);
    expect(activeWindow([], today)).toBeNull();
    // A view saved yesterday holds yesterday's dates: no quick window today.
    const yesterday = new Date(2027, 2, 30, 12);
    expect(activeWindow(withWindow([], 90, yesterday), today)).toBeNull();
  });

  it('has an overdue window: the dates before today, on any date field', () => {
    expect(windowFilter('overdue', today)).toEqual({ field: NOTICE_FIELD, op: 'lt', value: '2027-03-31' });
    const field = 'invoice_objection_deadline';
    const overdue = withWindow([withWindow([], 30, today, field)[0]], 'overdue', today, field);
    expect(overdue).toEqual([{ field, op: 'lt', value: '2027-03-31' }]);
    expect(activeWindow(overdue, today, field)).toBe('overdue');
    expect(activeWindow(overdue, today)).toBeNull();
  });

  it('keeps on the contract deadline list only the active deadlines not used up as overdue, and takes that away again', () => {
    const mine = { field: 'contractaction_responsible_user_id', op: 'eq' as const, value: 3 };
    const overdue = withWindow([mine], 'overdue', today, NOTICE_FIELD, OVERDUE_DEADLINE);
    expect(overdue).toEqual([mine, ...OVERDUE_DEADLINE, { field: NOTICE_FIELD, op: 'lt', value: '2027-03-31' }]);
    expect(activeWindow(overdue, today, NOTICE_FIELD, OVERDUE_DEADLINE)).toBe('overdue');
    // The dashboard's link holds the same conditions in another order, read back from the URL as text.
    const fromUrl = [{ field: NOTICE_FIELD, op: 'lt' as const, value: '2027-03-31' }, { field: 'contractaction_expired', op: 'eq' as const, value: '0' }, { field: STATUS_FIELD, op: 'eq' as const, value: 'active' }];
    expect(activeWindow(fromUrl, today, NOTICE_FIELD, OVERDUE_DEADLINE)).toBe('overdue');
    // A passed date alone (cancelled deadlines too) is no overdue window.
    expect(activeWindow([{ field: NOTICE_FIELD, op: 'lt', value: '2027-03-31' }], today, NOTICE_FIELD, OVERDUE_DEADLINE)).toBeNull();
    // The next window takes the status and used-up conditions with the date, the user's own condition stays.
    expect(withWindow(overdue, 30, today, NOTICE_FIELD, OVERDUE_DEADLINE)).toEqual([mine, { field: NOTICE_FIELD, op: 'between', value: ['2027-03-31', '2027-04-30'] }]);
    expect(withWindow(overdue, null, today, NOTICE_FIELD, OVERDUE_DEADLINE)).toEqual([mine]);
  });
});

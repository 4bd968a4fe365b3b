import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../../internal/i18n/locales/de.json';
import fr from '../../../../internal/i18n/locales/fr.json';
import { i18n } from '../../lib/i18n-instance';
import type { AttributeDefinition, Rule } from '../../lib/table-definition';
import { renderUi } from '../../test/render-ui';
import { RecordForm } from './record-form';
import { type FormMode, useRecordForm } from './use-record-form';

function attr(attribute: string, label: string, extra: Partial<AttributeDefinition>, rules: Rule[] = []): AttributeDefinition {
  return {
    attribute,
    attribute_i18n: label,
    attribute_regexp: '',
    attribute_regexp_failure_message: '',
    attribute_datatype_hint: 'text',
    attribute_datatype_len: 0,
    type: 'string',
    required: false,
    rules,
    sortable: true,
    ...extra,
  };
}

const ATTRS: AttributeDefinition[] = [
  attr('begin', 'Begin date', { type: 'date', attribute_datatype_hint: 'date' }),
  attr('end', 'End date', { type: 'date', attribute_datatype_hint: 'date' }, [{ rule: 'date_after', field: 'begin' }]),
  attr('amount', 'Amount', { type: 'decimal', attribute_datatype_hint: 'decimal' }),
  attr('count', 'Count', { type: 'int', attribute_datatype_hint: 'number' }),
];

function Harness({ mode = 'create', row }: { mode?: FormMode; row?: Record<string, unknown> }) {
  const form = useRecordForm(ATTRS, mode, row);
  const [sent, setSent] = useState('');
  return (
    <div>
      <RecordForm form={form} row={row} />
      <button type="button" onClick={() => setSent(form.validate() ? JSON.stringify(form.payload()) : 'invalid')}>
        Submit
      </button>
      <pre data-testid="payload">{sent}</pre>
    </div>
  );
}

/** Renders the harness with the interface in `lang`. */
async function renderIn(lang: 'en' | 'de' | 'fr', props: Parameters<typeof Harness>[0] = {}) {
  renderUi(<Harness {...props} />);
  if (lang !== 'en') {
    i18n.addResourceBundle(lang, 'translation', lang === 'de' ? de : fr, true, true);
    await act(() => i18n.changeLanguage(lang));
  }
}

const box = (name: string) => screen.getByRole('textbox', { name });
const payload = () => screen.getByTestId('payload').textContent ?? '';

afterEach(() => act(() => i18n.changeLanguage('en')));

describe('dates and numbers in the language of the interface', () => {
  it('reads German dates and the decimal comma, sends ISO dates and JSON numbers', async () => {
    const user = userEvent.setup();
    await renderIn('de');
    expect(box('Begin date')).toHaveAttribute('placeholder', 'TT.MM.JJJJ');
    await user.type(box('Begin date'), '31.12.2031');
    await user.type(box('Amount'), '1.234,56');
    await user.type(box('Count'), '1.234');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(payload())).toEqual({ begin: '2031-12-31', end: null, amount: 1234.56, count: 1234 });
  });

  it('reads French dates and space-separated thousands', async () => {
    const user = userEvent.setup();
    await renderIn('fr');
    expect(box('Begin date')).toHaveAttribute('placeholder', 'JJ/MM/AAAA');
    await user.type(box('Begin date'), '31/12/2031');
    await user.type(box('Amount'), '1 234,56');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(payload())).toMatchObject({ begin: '2031-12-31', amount: 1234.56 });
  });

  it('reads English month-first dates and the decimal point', async () => {
    const user = userEvent.setup();
    await renderIn('en');
    expect(box('Begin date')).toHaveAttribute('placeholder', 'MM/DD/YYYY');
    await user.type(box('Begin date'), '12/31/2031');
    await user.type(box('Amount'), '1,234.56');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(payload())).toMatchObject({ begin: '2031-12-31', amount: 1234.56 });
  });

  it('keeps an impossible date as typed and says so instead of moving it (12/31/2031 in German)', async () => {
    const user = userEvent.setup();
    await renderIn('de');
    await user.type(box('Begin date'), '12/31/2031');
    await user.tab();
    expect(box('Begin date')).toHaveValue('12/31/2031');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(payload()).toBe('invalid');
    expect(screen.getByText('Kein gültiges Datum: bitte im Format TT.MM.JJJJ eingeben')).toBeInTheDocument();
    expect(box('Begin date')).toHaveValue('12/31/2031');
    // Corrected, the message goes and the date is sent.
    await user.clear(box('Begin date'));
    await user.type(box('Begin date'), '31.12.2031');
    expect(screen.queryByText(/Kein gültiges Datum/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(payload())).toMatchObject({ begin: '2031-12-31' });
  });

  it('refuses 29 February of a year that has none', async () => {
    const user = userEvent.setup();
    await renderIn('en');
    await user.type(box('Begin date'), '02/29/2031');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(payload()).toBe('invalid');
    expect(screen.getByText('Not a valid date: enter it as MM/DD/YYYY')).toBeInTheDocument();
    expect(box('Begin date')).toHaveValue('02/29/2031');
  });

  it('keeps a typed end date before the start date in the field and shows why it is refused', async () => {
    const user = userEvent.setup();
    await renderIn('en');
    await user.type(box('Begin date'), '02/10/2024');
    await user.type(box('End date'), '02/01/2024');
    await user.tab();
    expect(box('End date')).toHaveValue('02/01/2024');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(payload()).toBe('invalid');
    expect(screen.getByText('This date must be after Begin date')).toBeInTheDocument();
    expect(box('End date')).toHaveValue('02/01/2024');
    // A later start date lifts the message while the end date stays as typed.
    await user.clear(box('Begin date'));
    await user.type(box('Begin date'), '01/15/2024');
    expect(screen.queryByText('This date must be after Begin date')).toBeNull();
    expect(box('End date')).toHaveValue('02/01/2024');
  });

  it('keeps a number it cannot read as typed, with a message, and drops no character', async () => {
    const user = userEvent.setup();
    await renderIn('de');
    await user.type(box('Amount'), '12.5');
    await user.type(box('Count'), '1,5');
    await user.tab();
    expect(box('Amount')).toHaveValue('12.5');
    expect(box('Count')).toHaveValue('1,5');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(payload()).toBe('invalid');
    expect(screen.getByText('Keine gültige Zahl: bitte wie 1.234,56 eingeben')).toBeInTheDocument();
    expect(screen.getByText('Bitte eine ganze Zahl eingeben, z. B. 1234')).toBeInTheDocument();
  });

  it('shows stored values in the language: inputs without thousands separators, read-only views with them', async () => {
    const row = { begin: '2031-12-31', end: null, amount: 1234.5, count: 7 };
    await renderIn('de', { mode: 'update', row });
    expect(box('Begin date')).toHaveValue('31.12.2031');
    expect(box('Amount')).toHaveValue('1234,50');
    // The same row in French.
    await act(() => {
      i18n.addResourceBundle('fr', 'translation', fr, true, true);
      return i18n.changeLanguage('fr');
    });
    expect(box('Begin date')).toHaveValue('31/12/2031');
    expect(box('Amount')).toHaveValue('1234,50');
  });

  it('separates thousands in the read-only view', async () => {
    await renderIn('de', { mode: 'view', row: { begin: '2031-12-31', end: null, amount: 1234.5, count: 1234 } });
    expect(box('Amount')).toHaveValue('1.234,50');
    expect(box('Count')).toHaveValue('1234');
    expect(box('Begin date')).toHaveValue('31.12.2031');
  });

  it('writes a date it read in full once the field is left', async () => {
    const user = userEvent.setup();
    await renderIn('de');
    await user.type(box('Begin date'), '1.2.2031');
    await user.type(box('Amount'), '1.234,5');
    await user.tab();
    expect(box('Begin date')).toHaveValue('01.02.2031');
    expect(box('Amount')).toHaveValue('1234,50');
  });

  it('takes a day picked in the calendar', async () => {
    const user = userEvent.setup();
    await renderIn('en', { mode: 'update', row: { begin: '2031-12-01', end: null, amount: null, count: null } });
    await user.click(box('Begin date'));
    await user.click(await screen.findByRole('button', { name: '24 December 2031' }));
    expect(box('Begin date')).toHaveValue('12/24/2031');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(JSON.parse(payload())).toMatchObject({ begin: '2031-12-24' });
  });
});

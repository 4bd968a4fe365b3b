import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Row } from '../../../lib/table-definition';
import { type AddressValues, isBlankAddress } from '../api/address';
import { useStateOfZip } from '../api/lookup-state';
import { useDebounced, ZIP_LOOKUP_DEBOUNCE_MS } from '../hooks/use-debounced';
import { optionsOf } from './options';

/** The country of an address form: the chosen one, else the stored one (by name), else Germany. */
export function resolveCountry(countries: Row[] | undefined, chosen: string, storedName = ''): { id: string; short: string } {
  const rows = countries ?? [];
  const stored = storedName ? rows.find((c) => c.country_name === storedName) : undefined;
  const id = chosen || String((stored ?? rows.find((c) => c.country_short === 'DE'))?.country_id ?? '');
  const short = String(rows.find((c) => String(c.country_id) === id)?.country_short ?? 'DE');
  return { id, short };
}

export interface AddressFieldsProps {
  value: AddressValues;
  onChange: (next: AddressValues) => void;
  countries: Row[] | undefined;
  /** Field errors of a 422, keyed "address.<field>". */
  errors?: Record<string, string>;
  /** The state stored with the address (shown until a lookup answers). */
  storedState?: string;
  /** The postal code stored with the address: its state is known, so it is not looked up again. */
  storedZip?: string;
  /** Shows the fields read-only (the page's view mode), readable, not greyed out. */
  disabled?: boolean;
  /** The address may stay empty: its fields are required only once one is filled in. */
  optional?: boolean;
}

/**
 * Street, house number, extra, postal code, city and country of an address;
 * the state is looked up 1,600 ms after the last keystroke in the postal
 * code (specification) and shown read-only.
 */
export function AddressFields({ value, onChange, countries, errors = {}, storedState = '', storedZip = '', disabled, optional }: AddressFieldsProps) {
  const { t } = useTranslation();
  const required = !optional || !isBlankAddress(value);
  const set = (k: keyof AddressValues) => (v: string | null) => onChange({ ...value, [k]: v ?? '' });
  const country = resolveCountry(countries, value.country, value.countryName);
  const zip = useDebounced(value.zip.trim(), ZIP_LOOKUP_DEBOUNCE_MS);
  // A stored postal code that came with its state is not looked up again;
  // one the user changes is.
  const known = storedState !== '' && zip === storedZip.trim();
  const state = useStateOfZip(known ? '' : zip, country.short);
  const err = (f: string) => errors[`address.${f}`] ?? errors[f];
  const stateText = state.data?.state ?? (zip === '' || state.isError ? '' : storedState);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput required={required} readOnly={disabled} variant={disabled ? 'filled' : 'default'} label={t('masterdata.address.street')} value={value.street}
        onChange={(e) => set('street')(e.currentTarget.value)} error={err('address_street')} />
      <TextInput required={required} readOnly={disabled} variant={disabled ? 'filled' : 'default'} label={t('masterdata.address.house_number')} value={value.house}
        onChange={(e) => set('house')(e.currentTarget.value)} error={err('address_house_number')} />
      <TextInput readOnly={disabled} variant={disabled ? 'filled' : 'default'} label={t('masterdata.address.extra')} value={value.extra}
        onChange={(e) => set('extra')(e.currentTarget.value)} error={err('address_extra')} />
      <Select required={required} readOnly={disabled} variant={disabled ? 'filled' : 'default'} searchable label={t('masterdata.address.country')}
        data={optionsOf(countries, 'country_id', ['country_name'])} value={country.id} onChange={set('country')} error={err('country_id')} />
      <TextInput required={required} readOnly={disabled} variant={disabled ? 'filled' : 'default'} label={t('masterdata.address.zip')} value={value.zip}
        onChange={(e) => set('zip')(e.currentTarget.value)}
        error={err('city_zip') ?? (state.isError && zip ? t('masterdata.address.zip_unknown') : undefined)} />
      <TextInput required={required} readOnly={disabled} variant={disabled ? 'filled' : 'default'} label={t('masterdata.address.city')} value={value.city}
        onChange={(e) => set('city')(e.currentTarget.value)} placeholder={state.data?.places[0]} error={err('city_name')} />
      <TextInput readOnly variant="filled" label={t('masterdata.address.state')} value={stateText} />
    </SimpleGrid>
  );
}

import type { Row } from '../../../lib/table-definition';

/** An address as the company and location saves send it: edit=true with address_id changes that address. */
export interface AddressInput {
  edit?: boolean;
  address_id?: number;
  row_version?: number;
  address_street: string;
  address_house_number: string;
  address_extra?: string;
  city_zip: string;
  city_name: string;
  country_id: number;
}

/** The address fields of a form. */
export interface AddressValues {
  street: string;
  house: string;
  extra: string;
  zip: string;
  city: string;
  /** country_id as text; empty: the stored country (countryName), else Germany. */
  country: string;
  /** The stored address's country name (its read carries the name, not the id). */
  countryName?: string;
}

export const EMPTY_ADDRESS: AddressValues = { street: '', house: '', extra: '', zip: '', city: '', country: '' };

/** The form values of a stored address (null: none yet). */
export function addressValues(row: Row | null | undefined): AddressValues {
  if (!row) return EMPTY_ADDRESS;
  return {
    street: String(row.address_street ?? ''),
    house: String(row.address_house_number ?? ''),
    extra: String(row.address_extra ?? ''),
    zip: String(row.city_zip ?? ''),
    city: String(row.city_name ?? ''),
    country: row.country_id != null ? String(row.country_id) : '',
    countryName: String(row.country_name ?? ''),
  };
}

/** True when no address field is filled in. */
export function isBlankAddress(v: AddressValues): boolean {
  return !v.street.trim() && !v.house.trim() && !v.zip.trim() && !v.city.trim();
}

/**
 * What a save sends for the address in `v`: the stored one (`current`)
 * changed in place, or a new one; countryId is the resolved country.
 */
export function addressInput(v: AddressValues, countryId: number, current: Row | null | undefined): AddressInput {
  const out: AddressInput = {
    edit: true,
    address_street: v.street.trim(),
    address_house_number: v.house.trim(),
    city_zip: v.zip.trim(),
    city_name: v.city.trim(),
    country_id: countryId,
  };
  if (v.extra.trim()) out.address_extra = v.extra.trim();
  if (current?.address_id) {
    out.address_id = Number(current.address_id);
    out.row_version = Number(current.row_version ?? 0);
  }
  return out;
}

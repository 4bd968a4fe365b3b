import { recordKey } from '../../../lib/record-keys';

/** Query keys of the master-data screens. */
export const masterdataKeys = {
  all: ['masterdata'] as const,
  taxRates: (companyId: number) => [...masterdataKeys.all, 'tax-rates', companyId] as const,
  state: (country: string, zip: string) => [...masterdataKeys.all, 'state', country, zip] as const,
  lookup: (entity: string) => [...masterdataKeys.all, 'lookup', entity] as const,
  company: (id: number) => [...masterdataKeys.all, 'company', id] as const,
  location: (id: number) => [...masterdataKeys.all, 'location', id] as const,
  contact: (id: number) => [...masterdataKeys.all, 'contact', id] as const,
  area: (id: number) => [...masterdataKeys.all, 'area', id] as const,
  locationPartners: (id: number) => [...masterdataKeys.all, 'location-partners', id] as const,
  contacts: (partnerCompanyId: number | null, keyword: string, page: number) =>
    [...masterdataKeys.all, 'contacts', partnerCompanyId, keyword, page] as const,
  areas: (keyword: string) => [...masterdataKeys.all, 'areas', keyword] as const,
  serviceObjects: (keyword: string) => [...masterdataKeys.all, 'service-objects', keyword] as const,
  /** Under the record's shared prefix: writes in other features that move its values refresh it. */
  facts: (entity: string, id: number) => [...recordKey(entity, id), 'facts'] as const,
};

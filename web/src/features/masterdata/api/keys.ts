/** Query keys of the master-data screens. */
export const masterdataKeys = {
  all: ['masterdata'] as const,
  taxRates: (companyId: number) => [...masterdataKeys.all, 'tax-rates', companyId] as const,
  state: (country: string, zip: string) => [...masterdataKeys.all, 'state', country, zip] as const,
  lookup: (entity: string) => [...masterdataKeys.all, 'lookup', entity] as const,
};

-- Master data (issue 11): the postal codes the state lookup answers from,
-- and creditor numbers unique per company.

-- Zip codes with their state and places (GeoNames, CC BY 4.0, see
-- internal/masterdata/postalcodes/README.md), one row per country, zip and
-- state; postalcode_rank 0 is the state with most places. Filled from the
-- data embedded in the binary on the first lookup of a country.
CREATE TABLE postalcode (
  country_short TEXT NOT NULL,
  postalcode_zip TEXT NOT NULL,
  postalcode_state TEXT NOT NULL,
  postalcode_rank INTEGER NOT NULL,
  postalcode_places TEXT NOT NULL,
  PRIMARY KEY (country_short, postalcode_zip, postalcode_state)
);

-- The countries whose postal codes are loaded, and from which data version.
CREATE TABLE postalcode_load (
  country_short TEXT PRIMARY KEY,
  postalcode_version TEXT NOT NULL
);

-- A company keeps each creditor number for one partner company only.
CREATE UNIQUE INDEX kreditornumber_company_number_idx ON kreditornumber (company_id, kreditornumber_number);

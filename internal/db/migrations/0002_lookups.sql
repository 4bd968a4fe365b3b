-- Shared master data: currencies, countries, languages, cities and
-- addresses, units, contact titles and salutations, products and
-- general-ledger accounts (Sachkonten).
-- Definitions: internal/schema/lookups.go. Conventions as in 0001: every
-- entity table has a single-column key <entity>_id and row_version; every
-- foreign key and every default-label column is indexed. Seeded ids the
-- definitions rely on: unit 1 is the default unit.

-- A currency.
CREATE TABLE currency (
  currency_id {{PK}},
  currency_name TEXT NOT NULL,
  currency_short TEXT NOT NULL,
  currency_symbol TEXT NOT NULL,
  currency_iso4217 TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (currency_iso4217)
);
CREATE INDEX currency_short_idx ON currency (currency_short);

-- A country and its currency.
CREATE TABLE country (
  country_id {{PK}},
  country_name TEXT NOT NULL,
  country_short TEXT NOT NULL,
  currency_id {{BIGINT}} NOT NULL REFERENCES currency (currency_id),
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (country_short)
);
CREATE INDEX country_currency_idx ON country (currency_id);
CREATE INDEX country_name_idx ON country (country_name);

-- A language.
CREATE TABLE language (
  language_id {{PK}},
  language_name TEXT NOT NULL,
  language_iso639 TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (language_iso639)
);
CREATE INDEX language_name_idx ON language (language_name);

-- A city with its zip code; the state is looked up from the zip.
CREATE TABLE city (
  city_id {{PK}},
  city_name TEXT NOT NULL,
  city_zip TEXT NOT NULL,
  state TEXT NOT NULL,
  country_id {{BIGINT}} NOT NULL REFERENCES country (country_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX city_name_idx ON city (city_name);
CREATE INDEX city_country_idx ON city (country_id);
CREATE INDEX city_zip_idx ON city (city_zip);

-- A postal address; the list label shows zip, city name and street.
CREATE TABLE address (
  address_id {{PK}},
  address_street TEXT NOT NULL,
  address_house_number TEXT NOT NULL,
  address_extra TEXT,
  city_id {{BIGINT}} NOT NULL REFERENCES city (city_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX address_street_idx ON address (address_street);
CREATE INDEX address_city_idx ON address (city_id);

-- A unit of measure; unit_key groups the units a number field offers (area, period, ...). Id 1 is the default unit.
CREATE TABLE unit (
  unit_id {{PK}},
  unit_name TEXT NOT NULL,
  unit_description TEXT,
  unit_short TEXT,
  unit_key TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX unit_key_idx ON unit (unit_key);
CREATE INDEX unit_name_idx ON unit (unit_name);

-- An academic or honorary title of a contact person.
CREATE TABLE contacttitle (
  contacttitle_id {{PK}},
  contacttitle_name TEXT NOT NULL,
  contacttitle_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contacttitle_name_idx ON contacttitle (contacttitle_name);

-- A salutation of a contact person.
CREATE TABLE contactsalutation (
  contactsalutation_id {{PK}},
  contactsalutation_name TEXT NOT NULL,
  contactsalutation_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contactsalutation_name_idx ON contactsalutation (contactsalutation_name);

-- A product or service the provider sells.
CREATE TABLE product (
  product_id {{PK}},
  product_name TEXT NOT NULL,
  product_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX product_name_idx ON product (product_name);

-- A general-ledger account (Sachkonto) recurring payments are booked on.
CREATE TABLE sachkonto (
  sachkonto_id {{PK}},
  sachkonto_number TEXT NOT NULL,
  sachkonto_name TEXT NOT NULL,
  sachkonto_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (sachkonto_number)
);

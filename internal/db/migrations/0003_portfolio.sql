-- The portfolio: area, usage and location types, tags, contact persons
-- and their details, company details, tax rates, bank data, creditor
-- numbers, payments, sales orders, appointment tracks, locations, points of
-- sale and areas, with their link tables.
-- Definitions: internal/schema/portfolio.go.

-- Kind of area (sales floor, storage, ...).
CREATE TABLE areatype (
  areatype_id {{PK}},
  areatype_name TEXT NOT NULL,
  areatype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX areatype_name_idx ON areatype (areatype_name);

-- How an area is used.
CREATE TABLE usagetype (
  usagetype_id {{PK}},
  usagetype_name TEXT NOT NULL,
  usagetype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX usagetype_name_idx ON usagetype (usagetype_name);

-- Kind of location (shopping centre, high street, ...).
CREATE TABLE locationtype (
  locationtype_id {{PK}},
  locationtype_name TEXT NOT NULL,
  locationtype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX locationtype_name_idx ON locationtype (locationtype_name);

-- A free label attached to points of sale.
CREATE TABLE tag (
  tag_id {{PK}},
  tag_name TEXT NOT NULL,
  tag_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX tag_name_idx ON tag (tag_name);

-- Phone numbers, e-mail and web site of a contact person.
CREATE TABLE contactdetails (
  contactdetails_id {{PK}},
  contactdetails_email TEXT,
  contactdetails_phone TEXT,
  contactdetails_mobile TEXT,
  contactdetails_fax TEXT,
  contactdetails_website TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contactdetails_email_idx ON contactdetails (contactdetails_email);

-- A contact person of a company or a partner company.
CREATE TABLE contactperson (
  contactperson_id {{PK}},
  contactperson_firstname TEXT NOT NULL,
  contactperson_lastname TEXT NOT NULL,
  contactperson_department TEXT,
  contactperson_shortname TEXT NOT NULL DEFAULT '',
  contactperson_function TEXT,
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  contactsalutation_id {{BIGINT}} NOT NULL REFERENCES contactsalutation (contactsalutation_id),
  contacttitle_id {{BIGINT}} REFERENCES contacttitle (contacttitle_id),
  contactdetails_id {{BIGINT}} REFERENCES contactdetails (contactdetails_id),
  address_id {{BIGINT}} REFERENCES address (address_id),
  company_id {{BIGINT}} REFERENCES company (company_id),
  partnercompany_id {{BIGINT}} REFERENCES partnercompany (partnercompany_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contactperson_lastname_idx ON contactperson (contactperson_lastname);
CREATE INDEX contactperson_user_idx ON contactperson (user_id);
CREATE INDEX contactperson_contactsalutation_idx ON contactperson (contactsalutation_id);
CREATE INDEX contactperson_contacttitle_idx ON contactperson (contacttitle_id);
CREATE INDEX contactperson_contactdetails_idx ON contactperson (contactdetails_id);
CREATE INDEX contactperson_address_idx ON contactperson (address_id);
CREATE INDEX contactperson_company_idx ON contactperson (company_id);
CREATE INDEX contactperson_partnercompany_idx ON contactperson (partnercompany_id);
CREATE INDEX contactperson_firstname_idx ON contactperson (contactperson_firstname);

-- Address and contact data of a company (one row per company).
CREATE TABLE companydetails (
  companydetails_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id) ON DELETE CASCADE,
  address_id {{BIGINT}} REFERENCES address (address_id),
  companydetails_phone TEXT,
  companydetails_email TEXT,
  companydetails_website TEXT,
  companydetails_vat TEXT,
  companydetails_register_number TEXT,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (company_id)
);
CREATE INDEX companydetails_address_idx ON companydetails (address_id);

-- A tax rate of a company; listed by its value.
CREATE TABLE taxrate (
  taxrate_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id) ON DELETE CASCADE,
  taxrate_code TEXT NOT NULL,
  taxrate_value NUMERIC(18,4) NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (company_id, taxrate_code)
);

-- A bank account of a partner company or of a company (exactly one of them).
CREATE TABLE bankdata (
  bankdata_id {{PK}},
  partnercompany_id {{BIGINT}} REFERENCES partnercompany (partnercompany_id) ON DELETE CASCADE,
  company_id {{BIGINT}} REFERENCES company (company_id) ON DELETE CASCADE,
  bankdata_iban TEXT NOT NULL,
  bankdata_bic TEXT,
  bankdata_bank_name TEXT,
  bankdata_account_number TEXT,
  bankdata_vat TEXT,
  bankdata_is_active SMALLINT NOT NULL DEFAULT 0 CHECK (bankdata_is_active IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX bankdata_partnercompany_idx ON bankdata (partnercompany_id);
CREATE INDEX bankdata_company_idx ON bankdata (company_id);
CREATE INDEX bankdata_iban_idx ON bankdata (bankdata_iban);

-- The creditor number a company keeps for a partner company.
CREATE TABLE kreditornumber (
  kreditornumber_id {{PK}},
  partnercompany_id {{BIGINT}} NOT NULL REFERENCES partnercompany (partnercompany_id) ON DELETE CASCADE,
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  kreditornumber_number TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (partnercompany_id, company_id)
);
CREATE INDEX kreditornumber_company_idx ON kreditornumber (company_id);
CREATE INDEX kreditornumber_number_idx ON kreditornumber (kreditornumber_number);

-- A payment booked for a company.
CREATE TABLE payment (
  payment_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  payment_info TEXT NOT NULL,
  payment_debitor TEXT NOT NULL,
  payment_objectreference TEXT NOT NULL,
  payment_value NUMERIC(18,4) NOT NULL,
  payment_date DATE NOT NULL,
  payment_type TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX payment_company_idx ON payment (company_id);
CREATE INDEX payment_date_idx ON payment (payment_date);
CREATE INDEX payment_info_idx ON payment (payment_info);

-- A sales order of a company (the provider's product sold to the client).
CREATE TABLE salesorder (
  salesorder_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  product_id {{BIGINT}} REFERENCES product (product_id),
  salesorder_number TEXT NOT NULL,
  salesorder_date DATE NOT NULL,
  salesorder_amount NUMERIC(18,4),
  salesorder_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX salesorder_company_idx ON salesorder (company_id);
CREATE INDEX salesorder_product_idx ON salesorder (product_id);
CREATE INDEX salesorder_date_idx ON salesorder (salesorder_date);
CREATE INDEX salesorder_number_idx ON salesorder (salesorder_number);

-- An appointment or call with a company, kept as its appointment track.
CREATE TABLE appointmenttrack (
  appointmenttrack_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id) ON DELETE CASCADE,
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  appointmenttrack_date {{TIMESTAMP}} NOT NULL,
  appointmenttrack_subject TEXT NOT NULL,
  appointmenttrack_comment TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX appointmenttrack_company_idx ON appointmenttrack (company_id);
CREATE INDEX appointmenttrack_user_idx ON appointmenttrack (user_id);
CREATE INDEX appointmenttrack_date_idx ON appointmenttrack (appointmenttrack_date);
CREATE INDEX appointmenttrack_subject_idx ON appointmenttrack (appointmenttrack_subject);

-- A site (building, centre) owned by a company, with areas and partner companies over time.
CREATE TABLE location (
  location_id {{PK}},
  location_name TEXT NOT NULL,
  locationtype_id {{BIGINT}} NOT NULL REFERENCES locationtype (locationtype_id),
  location_total_area NUMERIC(18,4),
  location_start_date DATE,
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  address_id {{BIGINT}} NOT NULL REFERENCES address (address_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX location_locationtype_idx ON location (locationtype_id);
CREATE INDEX location_company_idx ON location (company_id);
CREATE INDEX location_address_idx ON location (address_id);
CREATE INDEX location_name_idx ON location (location_name);

-- A point of sale (store) of a company.
CREATE TABLE pos (
  pos_id {{PK}},
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  pos_name TEXT NOT NULL,
  pos_branchnumber TEXT NOT NULL,
  pos_name_external TEXT,
  pos_first_year INTEGER NOT NULL,
  contactperson_id {{BIGINT}} NOT NULL REFERENCES contactperson (contactperson_id),
  pos_internal_id INTEGER NOT NULL DEFAULT 56,
  pos_opening_date DATE NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX pos_company_idx ON pos (company_id);
CREATE INDEX pos_branchnumber_idx ON pos (pos_branchnumber);
CREATE INDEX pos_contactperson_idx ON pos (contactperson_id);
CREATE INDEX pos_opening_date_idx ON pos (pos_opening_date);
CREATE INDEX pos_name_idx ON pos (pos_name);

-- A rentable area of a location with its type and usage over time.
CREATE TABLE area (
  area_id {{PK}},
  location_id {{BIGINT}} NOT NULL REFERENCES location (location_id),
  areatype_id {{BIGINT}} NOT NULL REFERENCES areatype (areatype_id),
  area_name TEXT NOT NULL,
  area_name_external TEXT,
  area_space_value NUMERIC(18,4) NOT NULL,
  usagetype_id {{BIGINT}} NOT NULL REFERENCES usagetype (usagetype_id),
  area_usage_valid_from DATE NOT NULL,
  area_usage_valid_to DATE,
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK (area_usage_valid_to IS NULL OR area_usage_valid_from IS NULL OR area_usage_valid_to >= area_usage_valid_from)
);
CREATE INDEX area_location_idx ON area (location_id);
CREATE INDEX area_areatype_idx ON area (areatype_id);
CREATE INDEX area_usagetype_idx ON area (usagetype_id);
CREATE INDEX area_usage_valid_from_idx ON area (area_usage_valid_from);
CREATE INDEX area_name_idx ON area (area_name);

-- Link pos - location: the locations a point of sale is at.
CREATE TABLE pos_location (
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id) ON DELETE CASCADE,
  location_id {{BIGINT}} NOT NULL REFERENCES location (location_id),
  PRIMARY KEY (pos_id, location_id)
);
CREATE INDEX pos_location_location_idx ON pos_location (location_id);

-- Link pos - area: the areas a point of sale uses.
CREATE TABLE pos_area (
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id) ON DELETE CASCADE,
  area_id {{BIGINT}} NOT NULL REFERENCES area (area_id) ON DELETE CASCADE,
  PRIMARY KEY (pos_id, area_id)
);
CREATE INDEX pos_area_area_idx ON pos_area (area_id);

-- Link pos - tag.
CREATE TABLE pos_tag (
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id) ON DELETE CASCADE,
  tag_id {{BIGINT}} NOT NULL REFERENCES tag (tag_id) ON DELETE CASCADE,
  PRIMARY KEY (pos_id, tag_id)
);
CREATE INDEX pos_tag_tag_idx ON pos_tag (tag_id);

-- Link users - pos: the points of sale a user is responsible for, over time.
CREATE TABLE user_pos (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id) ON DELETE CASCADE,
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, pos_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_pos_pos_idx ON user_pos (pos_id);

-- Link location - partnercompany: partners of a location by partner type over
-- time; the same partner may return in a later period.
CREATE TABLE location_partnercompany (
  location_partnercompany_id {{PK}},
  location_id {{BIGINT}} NOT NULL REFERENCES location (location_id) ON DELETE CASCADE,
  partnercompany_id {{BIGINT}} NOT NULL REFERENCES partnercompany (partnercompany_id),
  partnertype_id {{BIGINT}} NOT NULL REFERENCES partnertype (partnertype_id),
  valid_from DATE NOT NULL,
  valid_to DATE,
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX location_partnercompany_location_idx ON location_partnercompany (location_id);
CREATE INDEX location_partnercompany_partnercompany_idx ON location_partnercompany (partnercompany_id);
CREATE INDEX location_partnercompany_partnertype_idx ON location_partnercompany (partnertype_id);

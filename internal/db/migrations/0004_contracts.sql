-- Contracts and what hangs from them: area links, deadlines
-- (contractaction), recurring payments, criteria and choices, special
-- rights, cost types, service objects and index clauses, with their
-- lookups. Seeded ids the definitions rely on: maturity types 1 (fixed
-- date) and 2 (ranges); recurring payment types 1-10; criteria 1 and 39
-- (numeric value).
-- "exists" (contract_criteria) is a keyword in SQLite: always quote it.
-- Definitions: internal/schema/contracts.go.

-- Kind of contract (lease, service, ...).
CREATE TABLE contracttype (
  contracttype_id {{PK}},
  contracttype_name TEXT NOT NULL,
  contracttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contracttype_name_idx ON contracttype (contracttype_name);

-- Role of a document in a contract (main contract, amendment, ...).
CREATE TABLE documentcontracttype (
  documentcontracttype_id {{PK}},
  documentcontracttype_name TEXT NOT NULL,
  documentcontracttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX documentcontracttype_name_idx ON documentcontracttype (documentcontracttype_name);

-- How a recurring payment falls due. Fixed ids: 1 fixed date, 2 daily and monthly ranges.
CREATE TABLE maturitytype (
  maturitytype_id {{PK}},
  maturitytype_name TEXT NOT NULL,
  maturitytype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX maturitytype_name_idx ON maturitytype (maturitytype_name);

-- Kind of recurring payment. Ids 1, 3-9 are sums per month, 2 and 10 percentages.
CREATE TABLE recurringpaymenttype (
  recurringpaymenttype_id {{PK}},
  recurringpaymenttype_name TEXT NOT NULL,
  recurringpaymenttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX recurringpaymenttype_name_idx ON recurringpaymenttype (recurringpaymenttype_name);

-- Kind of service object.
CREATE TABLE serviceobjecttype (
  serviceobjecttype_id {{PK}},
  serviceobjecttype_name TEXT NOT NULL,
  serviceobjecttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX serviceobjecttype_name_idx ON serviceobjecttype (serviceobjecttype_name);

-- Kind of criteria; has_value says whether its criteria carry a value, units the units offered.
CREATE TABLE criteriatype (
  criteriatype_id {{PK}},
  criteriatype_name TEXT NOT NULL,
  criteriatype_description TEXT,
  has_value SMALLINT NOT NULL DEFAULT 1 CHECK (has_value IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX criteriatype_name_idx ON criteriatype (criteriatype_name);

-- A contract condition (criteria). Ids 1 and 39 carry a numeric value.
CREATE TABLE criteria (
  criteria_id {{PK}},
  criteria_name TEXT NOT NULL,
  criteriatype_id {{BIGINT}} NOT NULL REFERENCES criteriatype (criteriatype_id),
  criteria_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX criteria_criteriatype_idx ON criteria (criteriatype_id);
CREATE INDEX criteria_name_idx ON criteria (criteria_name);

-- One answer a criteria offers.
CREATE TABLE choice (
  choice_id {{PK}},
  criteria_id {{BIGINT}} NOT NULL REFERENCES criteria (criteria_id) ON DELETE CASCADE,
  choice_name TEXT NOT NULL,
  has_value SMALLINT NOT NULL DEFAULT 1 CHECK (has_value IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX choice_criteria_idx ON choice (criteria_id);
CREATE INDEX choice_name_idx ON choice (choice_name);

-- A special right a contract may grant (pre-emption, sublease, ...).
CREATE TABLE specialright (
  specialright_id {{PK}},
  specialright_name TEXT NOT NULL,
  specialright_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX specialright_name_idx ON specialright (specialright_name);

-- An internal cost type, mapped to external cost types and to contracts.
CREATE TABLE costtype (
  costtype_id {{PK}},
  costtype_name TEXT NOT NULL,
  costtype_maingroup SMALLINT NOT NULL DEFAULT 0 CHECK (costtype_maingroup IN (0, 1)),
  costtype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX costtype_name_idx ON costtype (costtype_name);

-- A cost type as landlords name it on invoices.
CREATE TABLE externalcosttype (
  externalcosttype_id {{PK}},
  externalcosttype_name TEXT NOT NULL,
  externalcosttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX externalcosttype_name_idx ON externalcosttype (externalcosttype_name);

-- An index clause: how a rent follows a price index.
CREATE TABLE indexclause (
  indexclause_id {{PK}},
  indexclause_name TEXT NOT NULL,
  indexclause_adjustment_rule TEXT NOT NULL,
  indexclause_description TEXT NOT NULL,
  indexclause_baseyear INTEGER NOT NULL,
  indexclause_begin_date DATE NOT NULL,
  indextransmission_percent NUMERIC(18,4) NOT NULL,
  change_in_percent SMALLINT NOT NULL DEFAULT 0 CHECK (change_in_percent IN (0, 1)),
  indexclause_minimal_percent_change NUMERIC(18,4),
  indexclause_minimal_point_change NUMERIC(18,4),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX indexclause_name_idx ON indexclause (indexclause_name);

-- A serviced object (installation, equipment) at areas, locations and contracts.
CREATE TABLE serviceobject (
  serviceobject_id {{PK}},
  serviceobject_name TEXT NOT NULL,
  serviceobject_name_external TEXT,
  serviceobject_description TEXT,
  serviceobjecttype_id {{BIGINT}} NOT NULL REFERENCES serviceobjecttype (serviceobjecttype_id),
  serviceobject_last_change_time {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX serviceobject_serviceobjecttype_idx ON serviceobject (serviceobjecttype_id);
CREATE INDEX serviceobject_last_change_time_idx ON serviceobject (serviceobject_last_change_time);
CREATE INDEX serviceobject_name_idx ON serviceobject (serviceobject_name);

-- A lease or service contract of a company for a point of sale at a location.
CREATE TABLE contract (
  contract_id {{PK}},
  contract_name TEXT NOT NULL,
  contracttype_id {{BIGINT}} NOT NULL REFERENCES contracttype (contracttype_id),
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id),
  location_id {{BIGINT}} NOT NULL REFERENCES location (location_id),
  currency_id {{BIGINT}} NOT NULL REFERENCES currency (currency_id),
  contract_begin_date DATE NOT NULL,
  contract_end_date DATE NOT NULL,
  contract_first_possible_end_date DATE NOT NULL,
  contract_migration_checked SMALLINT NOT NULL DEFAULT 0 CHECK (contract_migration_checked IN (0, 1)),
  contract_resiliation SMALLINT NOT NULL DEFAULT 0 CHECK (contract_resiliation IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK (contract_end_date IS NULL OR contract_begin_date IS NULL OR contract_end_date >= contract_begin_date),
  CHECK (contract_first_possible_end_date IS NULL OR contract_begin_date IS NULL OR contract_first_possible_end_date >= contract_begin_date)
);
CREATE INDEX contract_contracttype_idx ON contract (contracttype_id);
CREATE INDEX contract_company_idx ON contract (company_id);
CREATE INDEX contract_pos_idx ON contract (pos_id);
CREATE INDEX contract_location_idx ON contract (location_id);
CREATE INDEX contract_currency_idx ON contract (currency_id);
CREATE INDEX contract_begin_date_idx ON contract (contract_begin_date);
CREATE INDEX contract_end_date_idx ON contract (contract_end_date);
CREATE INDEX contract_first_possible_end_date_idx ON contract (contract_first_possible_end_date);
CREATE INDEX contract_name_idx ON contract (contract_name);

-- A contract deadline: option, automatic extension or (special) resiliation with its notice period.
CREATE TABLE contractaction (
  contractaction_id {{PK}},
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  contractaction_acting_by TEXT NOT NULL CHECK (contractaction_acting_by IN ('mieter_vermieter', 'mieter', 'vermieter')),
  contractaction_type TEXT NOT NULL CHECK (contractaction_type IN ('active_option', 'automatic_option', 'automatic_extension', 'resiliation', 'special_resiliation')),
  contractaction_resiliation_date DATE,
  contractaction_options_count INTEGER,
  contractaction_extension_value INTEGER,
  contractaction_extension_unit TEXT CHECK (contractaction_extension_unit IN ('day', 'week', 'month', 'year')),
  contractaction_notice_period_value INTEGER NOT NULL,
  contractaction_notice_period_unit TEXT NOT NULL CHECK (contractaction_notice_period_unit IN ('day', 'week', 'month', 'year')),
  contractaction_notice_date DATE,
  contractaction_creation_time {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  contractaction_status TEXT NOT NULL DEFAULT 'active' CHECK (contractaction_status IN ('active', 'unactive', 'cancelled', 'pulled', 'stopped')),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contractaction_contract_idx ON contractaction (contract_id);
CREATE INDEX contractaction_type_idx ON contractaction (contractaction_type);
CREATE INDEX contractaction_notice_date_idx ON contractaction (contractaction_notice_date);
CREATE INDEX contractaction_status_idx ON contractaction (contractaction_status);

-- A recurring payment of a contract (rent, service charge, ...).
CREATE TABLE recurringpayment (
  recurringpayment_id {{PK}},
  recurringpayment_name TEXT NOT NULL,
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  partnercompany_id {{BIGINT}} REFERENCES partnercompany (partnercompany_id),
  bankdata_id {{BIGINT}} REFERENCES bankdata (bankdata_id),
  taxrate_id {{BIGINT}} NOT NULL REFERENCES taxrate (taxrate_id),
  recurringpaymenttype_id {{BIGINT}} NOT NULL REFERENCES recurringpaymenttype (recurringpaymenttype_id),
  sachkonto_id {{BIGINT}} NOT NULL REFERENCES sachkonto (sachkonto_id),
  recurringpayment_sum_per_month NUMERIC(18,4),
  recurringpayment_condition_percentage NUMERIC(18,4),
  recurringpayment_percentage NUMERIC(18,4),
  recurringpayment_begin_date DATE NOT NULL,
  recurringpayment_end_date DATE NOT NULL,
  recurringpayment_condition_comment TEXT,
  bemerkung TEXT,
  maturitytype_id {{BIGINT}} NOT NULL REFERENCES maturitytype (maturitytype_id),
  recurringpayment_maturity_date DATE,
  recurringpayment_maturity_daily_range INTEGER,
  recurringpayment_maturity_monthly_range INTEGER,
  recurringpayment_value_deposit SMALLINT NOT NULL DEFAULT 0 CHECK (recurringpayment_value_deposit IN (0, 1)),
  indexclause_id {{BIGINT}} REFERENCES indexclause (indexclause_id),
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK (recurringpayment_end_date IS NULL OR recurringpayment_begin_date IS NULL OR recurringpayment_end_date >= recurringpayment_begin_date)
);
CREATE INDEX recurringpayment_contract_idx ON recurringpayment (contract_id);
CREATE INDEX recurringpayment_partnercompany_idx ON recurringpayment (partnercompany_id);
CREATE INDEX recurringpayment_bankdata_idx ON recurringpayment (bankdata_id);
CREATE INDEX recurringpayment_taxrate_idx ON recurringpayment (taxrate_id);
CREATE INDEX recurringpayment_recurringpaymenttype_idx ON recurringpayment (recurringpaymenttype_id);
CREATE INDEX recurringpayment_sachkonto_idx ON recurringpayment (sachkonto_id);
CREATE INDEX recurringpayment_begin_date_idx ON recurringpayment (recurringpayment_begin_date);
CREATE INDEX recurringpayment_end_date_idx ON recurringpayment (recurringpayment_end_date);
CREATE INDEX recurringpayment_maturitytype_idx ON recurringpayment (maturitytype_id);
CREATE INDEX recurringpayment_indexclause_idx ON recurringpayment (indexclause_id);
CREATE INDEX recurringpayment_name_idx ON recurringpayment (recurringpayment_name);

-- Link criteriatype - unit: the units a criteria type offers.
CREATE TABLE criteriatype_unit (
  criteriatype_id {{BIGINT}} NOT NULL REFERENCES criteriatype (criteriatype_id) ON DELETE CASCADE,
  unit_id {{BIGINT}} NOT NULL REFERENCES unit (unit_id),
  PRIMARY KEY (criteriatype_id, unit_id)
);
CREATE INDEX criteriatype_unit_unit_idx ON criteriatype_unit (unit_id);

-- Link costtype - externalcosttype.
CREATE TABLE costtype_externalcosttype (
  costtype_id {{BIGINT}} NOT NULL REFERENCES costtype (costtype_id) ON DELETE CASCADE,
  externalcosttype_id {{BIGINT}} NOT NULL REFERENCES externalcosttype (externalcosttype_id) ON DELETE CASCADE,
  PRIMARY KEY (costtype_id, externalcosttype_id)
);
CREATE INDEX costtype_externalcosttype_externalcosttype_idx ON costtype_externalcosttype (externalcosttype_id);

-- Link contract - area: the areas a contract covers, with usage, unit
-- (default 1), rental and allocation space, main usage and validity.
CREATE TABLE contract_area (
  contract_area_id {{PK}},
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  area_id {{BIGINT}} NOT NULL REFERENCES area (area_id),
  usagetype_id {{BIGINT}} NOT NULL REFERENCES usagetype (usagetype_id),
  unit_id {{BIGINT}} NOT NULL DEFAULT 1 REFERENCES unit (unit_id),
  rentalspace_value NUMERIC(18,4) NOT NULL,
  allocationspace_value NUMERIC(18,4) NOT NULL,
  mainusage SMALLINT NOT NULL DEFAULT 0 CHECK (mainusage IN (0, 1)),
  valid_from DATE NOT NULL,
  valid_to DATE,
  description TEXT,
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX contract_area_contract_idx ON contract_area (contract_id);
CREATE INDEX contract_area_area_idx ON contract_area (area_id);
CREATE INDEX contract_area_usagetype_idx ON contract_area (usagetype_id);
CREATE INDEX contract_area_unit_idx ON contract_area (unit_id);

-- Link contract - partnercompany: owners and managers of a contract.
CREATE TABLE contract_partnercompany (
  contract_partnercompany_id {{PK}},
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  partnercompany_id {{BIGINT}} NOT NULL REFERENCES partnercompany (partnercompany_id),
  partner_role TEXT NOT NULL CHECK (partner_role IN ('owner', 'manager')),
  UNIQUE (contract_id, partnercompany_id, partner_role)
);
CREATE INDEX contract_partnercompany_contract_idx ON contract_partnercompany (contract_id);
CREATE INDEX contract_partnercompany_partnercompany_idx ON contract_partnercompany (partnercompany_id);

-- Link contract - costtype, with a comment.
CREATE TABLE contract_costtype (
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  costtype_id {{BIGINT}} NOT NULL REFERENCES costtype (costtype_id),
  comment TEXT,
  PRIMARY KEY (contract_id, costtype_id)
);
CREATE INDEX contract_costtype_costtype_idx ON contract_costtype (costtype_id);

-- Link contract - criteria (contract criteria): value (criteria 1 and 39
-- only), choice, validity, exists, obsolete, comment.
CREATE TABLE contract_criteria (
  contract_criteria_id {{PK}},
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  criteria_id {{BIGINT}} NOT NULL REFERENCES criteria (criteria_id),
  value NUMERIC(18,4),
  choice_id {{BIGINT}} REFERENCES choice (choice_id),
  valid_from DATE NOT NULL,
  valid_to DATE,
  "exists" SMALLINT NOT NULL DEFAULT 0 CHECK ("exists" IN (0, 1)),
  is_obsolete SMALLINT NOT NULL DEFAULT 0 CHECK (is_obsolete IN (0, 1)),
  comment TEXT,
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX contract_criteria_contract_idx ON contract_criteria (contract_id);
CREATE INDEX contract_criteria_criteria_idx ON contract_criteria (criteria_id);
CREATE INDEX contract_criteria_choice_idx ON contract_criteria (choice_id);

-- Link contract - specialright: how a contract grants a special right.
CREATE TABLE contract_specialright (
  contract_specialright_id {{PK}},
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  specialright_id {{BIGINT}} NOT NULL REFERENCES specialright (specialright_id),
  description TEXT,
  date DATE NOT NULL,
  is_availed SMALLINT NOT NULL DEFAULT 0 CHECK (is_availed IN (0, 1)),
  is_passive SMALLINT NOT NULL DEFAULT 0 CHECK (is_passive IN (0, 1)),
  prior_notice_date DATE,
  termination_date DATE
);
CREATE INDEX contract_specialright_contract_idx ON contract_specialright (contract_id);
CREATE INDEX contract_specialright_specialright_idx ON contract_specialright (specialright_id);

-- Link contract - serviceobject.
CREATE TABLE contract_serviceobject (
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  serviceobject_id {{BIGINT}} NOT NULL REFERENCES serviceobject (serviceobject_id) ON DELETE CASCADE,
  PRIMARY KEY (contract_id, serviceobject_id)
);
CREATE INDEX contract_serviceobject_serviceobject_idx ON contract_serviceobject (serviceobject_id);

-- Link area - serviceobject.
CREATE TABLE area_serviceobject (
  area_id {{BIGINT}} NOT NULL REFERENCES area (area_id) ON DELETE CASCADE,
  serviceobject_id {{BIGINT}} NOT NULL REFERENCES serviceobject (serviceobject_id) ON DELETE CASCADE,
  PRIMARY KEY (area_id, serviceobject_id)
);
CREATE INDEX area_serviceobject_serviceobject_idx ON area_serviceobject (serviceobject_id);

-- Link location - serviceobject.
CREATE TABLE location_serviceobject (
  location_id {{BIGINT}} NOT NULL REFERENCES location (location_id) ON DELETE CASCADE,
  serviceobject_id {{BIGINT}} NOT NULL REFERENCES serviceobject (serviceobject_id) ON DELETE CASCADE,
  PRIMARY KEY (location_id, serviceobject_id)
);
CREATE INDEX location_serviceobject_serviceobject_idx ON location_serviceobject (serviceobject_id);

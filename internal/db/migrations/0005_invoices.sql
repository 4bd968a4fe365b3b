-- Invoice review: invoices and positions, invoice deadlines, value types
-- and criteria, inspection results and their lookups, contradictions,
-- contradiction packages and points, text modules and templates.
-- Definitions: internal/schema/invoices.go.

-- A kind of value read from invoices, with its unit.
CREATE TABLE invoicevaluetype (
  invoicevaluetype_id {{PK}},
  invoicevaluetype_name TEXT NOT NULL,
  invoicevaluetype_description TEXT,
  unit_id {{BIGINT}} NOT NULL REFERENCES unit (unit_id),
  invoicevaluetype_preferred_unit SMALLINT NOT NULL DEFAULT 0 CHECK (invoicevaluetype_preferred_unit IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX invoicevaluetype_unit_idx ON invoicevaluetype (unit_id);
CREATE INDEX invoicevaluetype_name_idx ON invoicevaluetype (invoicevaluetype_name);

-- A criteria an invoice is checked for.
CREATE TABLE invoicecriteria (
  invoicecriteria_id {{PK}},
  invoicecriteria_name TEXT NOT NULL,
  invoicecriteria_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX invoicecriteria_name_idx ON invoicecriteria (invoicecriteria_name);

-- Kind of claim an inspection result raises.
CREATE TABLE claimtype (
  claimtype_id {{PK}},
  claimtype_name TEXT NOT NULL,
  claimtype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX claimtype_name_idx ON claimtype (claimtype_name);

-- Rating of an inspection result.
CREATE TABLE rating (
  rating_id {{PK}},
  rating_name TEXT NOT NULL,
  rating_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX rating_name_idx ON rating (rating_name);

-- Categorization of an inspection result.
CREATE TABLE resultcategorization (
  resultcategorization_id {{PK}},
  resultcategorization_name TEXT NOT NULL,
  resultcategorization_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX resultcategorization_name_idx ON resultcategorization (resultcategorization_name);

-- Kind of saving an inspection result achieves.
CREATE TABLE savingtype (
  savingtype_id {{PK}},
  savingtype_name TEXT NOT NULL,
  savingtype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX savingtype_name_idx ON savingtype (savingtype_name);

-- A text block letters are assembled from: a left text and up to five right-hand blocks.
CREATE TABLE textmodule (
  textmodule_id {{PK}},
  textmodule_name TEXT NOT NULL,
  textmodule_description TEXT,
  textmodule_templatetext TEXT NOT NULL,
  textmodule_left_text TEXT,
  textmodule_block_count INTEGER NOT NULL DEFAULT 1,
  textmodule_right_text_1 TEXT,
  textmodule_right_text_2 TEXT,
  textmodule_right_text_3 TEXT,
  textmodule_right_text_4 TEXT,
  textmodule_right_text_5 TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX textmodule_name_idx ON textmodule (textmodule_name);

-- A fixed letter or mail template in German, French and English.
CREATE TABLE texttemplate (
  texttemplate_id {{PK}},
  texttemplate_name TEXT NOT NULL,
  texttemplate_code TEXT NOT NULL,
  texttemplate_content_de TEXT NOT NULL,
  texttemplate_content_fr TEXT NOT NULL,
  texttemplate_content_en TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (texttemplate_code)
);
CREATE INDEX texttemplate_name_idx ON texttemplate (texttemplate_name);

-- A placeholder text templates may use.
CREATE TABLE texttemplate_variable (
  texttemplate_variable_id {{PK}},
  texttemplate_variable_name TEXT NOT NULL,
  texttemplate_variable_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (texttemplate_variable_name)
);

-- An invoice under review (service charge statement, rent invoice) of a company's contract.
CREATE TABLE invoice (
  invoice_id {{PK}},
  invoice_date DATE NOT NULL,
  invoice_date_of_order DATE NOT NULL,
  invoice_contract_year INTEGER NOT NULL,
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  invoice_allocationarea NUMERIC(18,4) NOT NULL,
  invoice_payment_date DATE NOT NULL,
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id),
  partnertype_id {{BIGINT}} NOT NULL REFERENCES partnertype (partnertype_id),
  invoice_description TEXT,
  invoice_number TEXT NOT NULL,
  invoice_billing_period_from DATE NOT NULL,
  invoice_billing_period_to DATE NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK (invoice_billing_period_to IS NULL OR invoice_billing_period_from IS NULL OR invoice_billing_period_to >= invoice_billing_period_from)
);
CREATE INDEX invoice_date_idx ON invoice (invoice_date);
CREATE INDEX invoice_contract_year_idx ON invoice (invoice_contract_year);
CREATE INDEX invoice_company_idx ON invoice (company_id);
CREATE INDEX invoice_contract_idx ON invoice (contract_id);
CREATE INDEX invoice_partnertype_idx ON invoice (partnertype_id);
CREATE INDEX invoice_number_idx ON invoice (invoice_number);
CREATE INDEX invoice_billing_period_from_idx ON invoice (invoice_billing_period_from);

-- A position of an invoice; flat_rate and apportionable are switched inline.
CREATE TABLE invoiceposition (
  invoiceposition_id {{PK}},
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  invoiceposition_name TEXT NOT NULL,
  externalcosttype_id {{BIGINT}} NOT NULL REFERENCES externalcosttype (externalcosttype_id),
  costtype_id {{BIGINT}} NOT NULL REFERENCES costtype (costtype_id),
  unit_id {{BIGINT}} NOT NULL DEFAULT 1 REFERENCES unit (unit_id),
  total_units NUMERIC(18,4) NOT NULL,
  units_customer NUMERIC(18,4) NOT NULL,
  flat_rate SMALLINT NOT NULL DEFAULT 0 CHECK (flat_rate IN (0, 1)),
  amount_total NUMERIC(18,4) NOT NULL,
  amount_customer NUMERIC(18,4) NOT NULL,
  apportionable SMALLINT NOT NULL DEFAULT 0 CHECK (apportionable IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX invoiceposition_invoice_idx ON invoiceposition (invoice_id);
CREATE INDEX invoiceposition_externalcosttype_idx ON invoiceposition (externalcosttype_id);
CREATE INDEX invoiceposition_costtype_idx ON invoiceposition (costtype_id);
CREATE INDEX invoiceposition_unit_idx ON invoiceposition (unit_id);
CREATE INDEX invoiceposition_name_idx ON invoiceposition (invoiceposition_name);

-- A dated deadline of an invoice (objection, payment, reply).
CREATE TABLE invoicedeadline (
  invoicedeadline_id {{PK}},
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  invoicedeadline_name TEXT NOT NULL,
  invoicedeadline_date DATE NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX invoicedeadline_invoice_idx ON invoicedeadline (invoice_id);
CREATE INDEX invoicedeadline_date_idx ON invoicedeadline (invoicedeadline_date);
CREATE INDEX invoicedeadline_name_idx ON invoicedeadline (invoicedeadline_name);

-- A package of contradictions of a point of sale sent together.
CREATE TABLE contradictionpackage (
  contradictionpackage_id {{PK}},
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id),
  contradictionpackage_name TEXT NOT NULL,
  contradictionpackage_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contradictionpackage_pos_idx ON contradictionpackage (pos_id);
CREATE INDEX contradictionpackage_name_idx ON contradictionpackage (contradictionpackage_name);

-- An objection to an invoice, made of contradiction points.
CREATE TABLE contradiction (
  contradiction_id {{PK}},
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id),
  contradictionpackage_id {{BIGINT}} REFERENCES contradictionpackage (contradictionpackage_id) ON DELETE SET NULL,
  contradiction_name TEXT NOT NULL,
  contradiction_sum NUMERIC(18,4) NOT NULL DEFAULT 0,
  contradiction_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contradiction_invoice_idx ON contradiction (invoice_id);
CREATE INDEX contradiction_contradictionpackage_idx ON contradiction (contradictionpackage_id);
CREATE INDEX contradiction_name_idx ON contradiction (contradiction_name);

-- One point of a contradiction with its claim and accommodation thresholds.
CREATE TABLE contradictionpoint (
  contradictionpoint_id {{PK}},
  contradiction_id {{BIGINT}} NOT NULL REFERENCES contradiction (contradiction_id) ON DELETE CASCADE,
  contradictionpoint_rank INTEGER NOT NULL,
  contradictionpoint_title TEXT NOT NULL,
  contradictionpoint_max_claim_green NUMERIC(18,4),
  contradictionpoint_max_claim_yellow NUMERIC(18,4),
  contradictionpoint_max_claim_red NUMERIC(18,4),
  contradictionpoint_max_accommodation_green NUMERIC(18,4),
  contradictionpoint_max_accommodation_yellow NUMERIC(18,4),
  contradictionpoint_max_accommodation_red NUMERIC(18,4),
  contradictionpoint_additional_accommodation NUMERIC(18,4),
  contradictionpoint_owner_offer NUMERIC(18,4),
  contradictionpoint_text TEXT NOT NULL,
  contradictionpoint_customer_text TEXT,
  textmodule_id {{BIGINT}} REFERENCES textmodule (textmodule_id),
  legally_clear SMALLINT NOT NULL DEFAULT 1 CHECK (legally_clear IN (0, 1)),
  hidden SMALLINT NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contradictionpoint_contradiction_idx ON contradictionpoint (contradiction_id);
CREATE INDEX contradictionpoint_rank_idx ON contradictionpoint (contradictionpoint_rank);
CREATE INDEX contradictionpoint_textmodule_idx ON contradictionpoint (textmodule_id);
CREATE INDEX contradictionpoint_title_idx ON contradictionpoint (contradictionpoint_title);

-- The result of inspecting an invoice: value, saving, claim, rating.
CREATE TABLE inspectionresult (
  inspectionresult_id {{PK}},
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  invoiceposition_id {{BIGINT}} REFERENCES invoiceposition (invoiceposition_id) ON DELETE SET NULL,
  inspectionresult_value NUMERIC(18,4) NOT NULL,
  inspectionresult_realised SMALLINT NOT NULL DEFAULT 0 CHECK (inspectionresult_realised IN (0, 1)),
  unique_or_perennial TEXT NOT NULL CHECK (unique_or_perennial IN ('unique', 'perennial')),
  legally_clear SMALLINT NOT NULL DEFAULT 0 CHECK (legally_clear IN (0, 1)),
  claimtype_id {{BIGINT}} NOT NULL REFERENCES claimtype (claimtype_id),
  savingtype_id {{BIGINT}} NOT NULL REFERENCES savingtype (savingtype_id),
  rating_id {{BIGINT}} NOT NULL REFERENCES rating (rating_id),
  resultcategorization_id {{BIGINT}} NOT NULL REFERENCES resultcategorization (resultcategorization_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX inspectionresult_invoice_idx ON inspectionresult (invoice_id);
CREATE INDEX inspectionresult_invoiceposition_idx ON inspectionresult (invoiceposition_id);
CREATE INDEX inspectionresult_claimtype_idx ON inspectionresult (claimtype_id);
CREATE INDEX inspectionresult_savingtype_idx ON inspectionresult (savingtype_id);
CREATE INDEX inspectionresult_rating_idx ON inspectionresult (rating_id);
CREATE INDEX inspectionresult_resultcategorization_idx ON inspectionresult (resultcategorization_id);

-- Link invoice - area: the areas an invoice covers.
CREATE TABLE invoice_area (
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  area_id {{BIGINT}} NOT NULL REFERENCES area (area_id),
  PRIMARY KEY (invoice_id, area_id)
);
CREATE INDEX invoice_area_area_idx ON invoice_area (area_id);

-- Link invoice - invoicevaluetype: the values read from an invoice.
CREATE TABLE invoice_invoicevaluetype (
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  invoicevaluetype_id {{BIGINT}} NOT NULL REFERENCES invoicevaluetype (invoicevaluetype_id),
  value NUMERIC(18,4) NOT NULL,
  PRIMARY KEY (invoice_id, invoicevaluetype_id)
);
CREATE INDEX invoice_invoicevaluetype_invoicevaluetype_idx ON invoice_invoicevaluetype (invoicevaluetype_id);

-- Link invoice - invoicecriteria: which criteria are set on an invoice.
CREATE TABLE invoice_invoicecriteria (
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  invoicecriteria_id {{BIGINT}} NOT NULL REFERENCES invoicecriteria (invoicecriteria_id),
  is_set SMALLINT NOT NULL DEFAULT 0 CHECK (is_set IN (0, 1)),
  PRIMARY KEY (invoice_id, invoicecriteria_id)
);
CREATE INDEX invoice_invoicecriteria_invoicecriteria_idx ON invoice_invoicecriteria (invoicecriteria_id);

-- Link invoice - serviceobject.
CREATE TABLE invoice_serviceobject (
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  serviceobject_id {{BIGINT}} NOT NULL REFERENCES serviceobject (serviceobject_id) ON DELETE CASCADE,
  PRIMARY KEY (invoice_id, serviceobject_id)
);
CREATE INDEX invoice_serviceobject_serviceobject_idx ON invoice_serviceobject (serviceobject_id);

-- Invoice review (issue 14, decision 0016): the product's text modules are
-- found by code and language (one row per language: the generator's rule
-- texts and the objection letter), and a company names the language its
-- letters and contradiction points are written in (empty: German).
ALTER TABLE textmodule ADD COLUMN textmodule_code TEXT;
ALTER TABLE textmodule ADD COLUMN textmodule_language TEXT;
CREATE UNIQUE INDEX textmodule_code_language_key ON textmodule (textmodule_code, textmodule_language);
ALTER TABLE company ADD COLUMN company_language TEXT;

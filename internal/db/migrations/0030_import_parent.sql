-- Imports into a parent (issue 14, decision 0024): the positions of one
-- invoice are imported at /app/table/invoiceposition/import/{invoice}; the
-- invoice is fixed by the route, not a column of the file, and kept with
-- the upload so that validation and commit fill it into every row.
ALTER TABLE data_import ADD COLUMN import_parent_id {{BIGINT}};

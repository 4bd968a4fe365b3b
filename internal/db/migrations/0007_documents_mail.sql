-- Documents and mail: document types and sub types, documents (the file
-- itself lives in the file store, document_file is its storage key),
-- e-mails, and the links of documents to points of sale, contracts,
-- invoices, tickets, e-mails (attachments) and boards (document types).
-- Definitions: internal/schema/documents.go.

-- A kind of document, with sub types.
CREATE TABLE documenttype (
  documenttype_id {{PK}},
  documenttype_name TEXT NOT NULL,
  documenttype_description TEXT,
  documenttype_short TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX documenttype_name_idx ON documenttype (documenttype_name);

-- A sub type of a document type.
CREATE TABLE subdocumenttype (
  subdocumenttype_id {{PK}},
  documenttype_id {{BIGINT}} NOT NULL REFERENCES documenttype (documenttype_id),
  subdocumenttype_name TEXT NOT NULL,
  subdocumenttype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX subdocumenttype_documenttype_idx ON subdocumenttype (documenttype_id);
CREATE INDEX subdocumenttype_name_idx ON subdocumenttype (subdocumenttype_name);

-- An uploaded PDF, linked to points of sale, contracts, tickets, invoices and e-mails. Files are uploaded and listed through the documents module.
CREATE TABLE document (
  document_id {{PK}},
  document_name TEXT NOT NULL,
  document_mime_type TEXT NOT NULL,
  documenttype_id {{BIGINT}} NOT NULL REFERENCES documenttype (documenttype_id),
  subdocumenttype_id {{BIGINT}} REFERENCES subdocumenttype (subdocumenttype_id),
  document_file TEXT NOT NULL,
  document_size INTEGER NOT NULL DEFAULT 0,
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  document_created_at {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX document_documenttype_idx ON document (documenttype_id);
CREATE INDEX document_subdocumenttype_idx ON document (subdocumenttype_id);
CREATE INDEX document_user_idx ON document (user_id);
CREATE INDEX document_created_at_idx ON document (document_created_at);
CREATE INDEX document_name_idx ON document (document_name);

-- A received or sent e-mail, classified to a point of sale, contract or ticket.
CREATE TABLE email (
  email_id {{PK}},
  email_received_datetime {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  email_from TEXT NOT NULL,
  email_to TEXT NOT NULL,
  email_cc TEXT,
  email_subject TEXT NOT NULL DEFAULT '',
  email_body TEXT NOT NULL DEFAULT '',
  email_direction TEXT NOT NULL DEFAULT 'in' CHECK (email_direction IN ('in', 'out')),
  email_processed SMALLINT NOT NULL DEFAULT 0 CHECK (email_processed IN (0, 1)),
  pos_id {{BIGINT}} REFERENCES pos (pos_id),
  contract_id {{BIGINT}} REFERENCES contract (contract_id),
  ticket_id {{BIGINT}} REFERENCES ticket (ticket_id),
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  email_message_id TEXT,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (email_message_id)
);
CREATE INDEX email_received_datetime_idx ON email (email_received_datetime);
CREATE INDEX email_direction_idx ON email (email_direction);
CREATE INDEX email_processed_idx ON email (email_processed);
CREATE INDEX email_pos_idx ON email (pos_id);
CREATE INDEX email_contract_idx ON email (contract_id);
CREATE INDEX email_ticket_idx ON email (ticket_id);
CREATE INDEX email_user_idx ON email (user_id);
CREATE INDEX email_subject_idx ON email (email_subject);

-- Link board - documenttype: the document types a board uses.
CREATE TABLE board_documenttype (
  board_id {{BIGINT}} NOT NULL REFERENCES board (board_id) ON DELETE CASCADE,
  documenttype_id {{BIGINT}} NOT NULL REFERENCES documenttype (documenttype_id),
  PRIMARY KEY (board_id, documenttype_id)
);
CREATE INDEX board_documenttype_documenttype_idx ON board_documenttype (documenttype_id);

-- Link pos - document.
CREATE TABLE pos_document (
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id) ON DELETE CASCADE,
  document_id {{BIGINT}} NOT NULL REFERENCES document (document_id) ON DELETE CASCADE,
  PRIMARY KEY (pos_id, document_id)
);
CREATE INDEX pos_document_document_idx ON pos_document (document_id);

-- Link contract - document, with the document's role in the contract.
CREATE TABLE contract_document (
  contract_id {{BIGINT}} NOT NULL REFERENCES contract (contract_id) ON DELETE CASCADE,
  document_id {{BIGINT}} NOT NULL REFERENCES document (document_id) ON DELETE CASCADE,
  documentcontracttype_id {{BIGINT}} REFERENCES documentcontracttype (documentcontracttype_id),
  PRIMARY KEY (contract_id, document_id)
);
CREATE INDEX contract_document_document_idx ON contract_document (document_id);
CREATE INDEX contract_document_documentcontracttype_idx ON contract_document (documentcontracttype_id);

-- Link invoice - document.
CREATE TABLE invoice_document (
  invoice_id {{BIGINT}} NOT NULL REFERENCES invoice (invoice_id) ON DELETE CASCADE,
  document_id {{BIGINT}} NOT NULL REFERENCES document (document_id) ON DELETE CASCADE,
  PRIMARY KEY (invoice_id, document_id)
);
CREATE INDEX invoice_document_document_idx ON invoice_document (document_id);

-- Link ticket - document.
CREATE TABLE ticket_document (
  ticket_id {{BIGINT}} NOT NULL REFERENCES ticket (ticket_id) ON DELETE CASCADE,
  document_id {{BIGINT}} NOT NULL REFERENCES document (document_id) ON DELETE CASCADE,
  PRIMARY KEY (ticket_id, document_id)
);
CREATE INDEX ticket_document_document_idx ON ticket_document (document_id);

-- Link email - document: attachments.
CREATE TABLE email_document (
  email_id {{BIGINT}} NOT NULL REFERENCES email (email_id) ON DELETE CASCADE,
  document_id {{BIGINT}} NOT NULL REFERENCES document (document_id) ON DELETE CASCADE,
  PRIMARY KEY (email_id, document_id)
);
CREATE INDEX email_document_document_idx ON email_document (document_id);

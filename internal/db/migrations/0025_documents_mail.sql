-- Documents (issue 16): the SHA-256 of every stored file (a signature
-- names the content it was given), the stamped copy a ticket's stamp
-- column makes (its storage key and when), and on a signed copy the
-- storage key of the signature image. The original's file never changes.
ALTER TABLE document ADD COLUMN document_sha256 TEXT;
ALTER TABLE document ADD COLUMN document_stamp_file TEXT;
ALTER TABLE document ADD COLUMN document_stamped_at {{TIMESTAMP}};
ALTER TABLE document ADD COLUMN document_signature_file TEXT;

-- Mail sent with documents attached (POST /emails/send): the outbox keeps
-- the attachments with the message (JSON: name, content type, base64
-- content), so a message is delivered as it was when it was sent.
ALTER TABLE mail_outbox ADD COLUMN mail_attachments TEXT;

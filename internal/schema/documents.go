package schema

// MaxDocumentKB is the size rule of document uploads (the specification's
// "size rule 100000", in KB).
const MaxDocumentKB int64 = 100000

// documents: document types, documents and their links, e-mails and their
// attachments. Migration 0007_documents_mail.sql.
func documents() ([]Entity, []Link) {
	entities := []Entity{
		{
			Name: "documenttype", Small: true, Doc: "A kind of document, with sub types.",
			Tenant: global,
			Fields: []Field{
				name("documenttype_name"),
				memo("documenttype_description").optional(),
				str("documenttype_short", lenCode).search(),
			},
			Relations: []Relation{hasMany("subdocumenttypes", "subdocumenttype", "documenttype_id")},
		},
		{
			Name: "subdocumenttype", Small: true, Doc: "A sub type of a document type.",
			Tenant: global,
			Fields: []Field{
				ref("documenttype_id", "documenttype"),
				name("subdocumenttype_name"),
				memo("subdocumenttype_description").optional(),
			},
		},
		{
			Name: "document", Doc: "An uploaded PDF, linked to points of sale, contracts, tickets, invoices and e-mails. Files are uploaded and listed through the documents module.",
			Tenant: byCustomer(
				Path{"pos", "company_id", "customergroup_id"},
				Path{"contract", "company_id", "customergroup_id"},
				Path{"ticket", "pos_id", "company_id", "customergroup_id"},
				Path{"invoice", "company_id", "customergroup_id"},
				Path{"email", "pos_id", "company_id", "customergroup_id"},
			),
			Limits: Limits{NoGenericList: true},
			Fields: []Field{
				name("document_name"),
				str("document_mime_type", 100).readOnly().label("MIME type"),
				// Optional: a document is uploaded with its file alone and typed
				// later (contract step 7, PUT /documents/update); it is not
				// stamped or signed before (decision 0065).
				ref("documenttype_id", "documenttype").optional(),
				ref("subdocumenttype_id", "subdocumenttype").optional().where("documenttype_id", "documenttype_id"),
				str("document_file", lenName).kind(KindFile).readOnly().hideOnUpdate().label("File").
					sizeKB(MaxDocumentKB).accept(".pdf"),
				integer("document_size").readOnly().label("Size (bytes)"),
				ref("user_id", "user").label("Uploaded by").derive(CurrentUser(true)).setNull(),
				stamp("document_created_at").label("Uploaded").derive(Now(true)).index(),
				str("document_sha256", 64).readOnly().optional().label("SHA-256"),
				str("document_stamp_file", lenName).readOnly().optional().hideOnCreate().hideOnUpdate().label("Stamped file"),
				stamp("document_stamped_at").readOnly().optional().label("Stamped"),
				str("document_signature_file", lenName).readOnly().optional().hideOnCreate().hideOnUpdate().label("Signature image"),
			},
			Relations: []Relation{
				manyToMany("pos", "pos", "pos_document"),
				manyToMany("contract", "contract", "contract_document"),
				manyToMany("ticket", "ticket", "ticket_document"),
				manyToMany("invoice", "invoice", "invoice_document"),
				manyToMany("email", "email", "email_document"),
			},
		},
		{
			Name: "email", Doc: "A received or sent e-mail, classified to a point of sale, contract or ticket.",
			Label: []string{"email_subject"},
			Tenant: byCustomer(
				Path{"pos_id", "company_id", "customergroup_id"},
				Path{"contract_id", "company_id", "customergroup_id"},
				Path{"ticket_id", "pos_id", "company_id", "customergroup_id"},
			),
			Limits: Limits{NoCreate: true}, Unique: [][]string{{"email_message_id"}},
			Fields: []Field{
				stamp("email_received_datetime").readOnly().label("Received").index(),
				str("email_from", 0).email().readOnly().search(),
				str("email_to", 0).email().readOnly().search(),
				str("email_cc", 0).email().readOnly().optional(),
				str("email_subject", 998).readOnly().search(),
				htmlText("email_body").readOnly().label("Body"),
				enum("email_direction", opt("in", "Received"), opt("out", "Sent")).def(Text("in")).readOnly().index(),
				flag("email_processed").label("Processed").index(),
				ref("pos_id", "pos").optional(),
				ref("contract_id", "contract").optional(),
				ref("ticket_id", "ticket").optional(),
				ref("user_id", "user").optional().readOnly().setNull().label("Sent by"),
				str("email_message_id", 998).readOnly().optional().hideOnCreate().hideOnUpdate().label("Message-ID"),
			},
			Relations: []Relation{manyToMany("attachments", "document", "email_document")},
		},
	}
	links := []Link{
		link("board_documenttype", "board", "documenttype"),
		link("pos_document", "pos", "document").cascadeBoth(),
		link("contract_document", "contract", "document",
			ref("documentcontracttype_id", "documentcontracttype").optional()).cascadeBoth(),
		link("invoice_document", "invoice", "document").cascadeBoth(),
		link("ticket_document", "ticket", "document").cascadeBoth(),
		link("email_document", "email", "document").cascadeBoth(),
	}
	return entities, links
}

package schema

// RecordSearch is one entity the header's record search looks through
// (GET /search/records, decision 0069): the order of its hits, the column
// that tells hits of the same name apart (Detail), whether a number finds
// a row by its key (the key is part of what users see: a ticket's "#12",
// an invoice's label), and the further columns a hit carries for the
// browser to open it (Extra: a ticket opens on its board).
type RecordSearch struct {
	Entity  string
	OrderBy string
	Desc    bool
	Detail  string
	ByKey   bool
	Extra   []string
}

// RecordSearches are the entities the record search looks through, in the
// order of their groups.
var RecordSearches = []RecordSearch{
	{Entity: "pos", OrderBy: "pos_name", Detail: "pos_branchnumber"},
	{Entity: "contract", OrderBy: "contract_name", Detail: "pos_id__label"},
	{Entity: "invoice", OrderBy: "invoice_date", Desc: true, Detail: "company_id__label", ByKey: true},
	{Entity: "ticket", OrderBy: "ticket_id", Desc: true, Detail: "pos_id__label", ByKey: true, Extra: []string{"board_id"}},
}

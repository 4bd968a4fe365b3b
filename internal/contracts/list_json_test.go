package contracts_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"portfolio/internal/contracts"
	"portfolio/internal/platform/deadline"
)

// TestDeadlinePageJSONEqualsEncoding: the deadline page writes itself
// without reflection; the document must be the one encoding/json writes
// (HTML characters unescaped, as httpapi.WriteJSON does), for NULLs, quotes,
// control characters, HTML characters, non-ASCII text and invalid UTF-8.
func TestDeadlinePageJSONEqualsEncoding(t *testing.T) {
	text := func(s string) *string { return &s }
	page := &contracts.DeadlinePage{Data: []contracts.DeadlineRow{
		{ID: 1, ContractID: 7, ContractLabel: text(`Miete "Süd" <A&B>`), PosLabel: text("Zeile\nzwei\ttab\x01"),
			CompanyLabel: text("Straße 12 \u2028 ende"), Type: "notice", ActingBy: text("landlord"),
			NoticeDate: text("2027-03-31"), TrafficLight: deadline.LightRed, Status: "active", RowVersion: 3},
		{ID: 2, ContractID: 8, Type: "option\\x", Status: "pulled", CompanyLabel: text("bad \xff utf8"), RowVersion: 1},
	}}
	page.Links.Pagination = contracts.Pagination{CurrentPage: 2, LastPage: 9, PerPage: 50, Total: 431}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(page); err != nil {
		t.Fatal(err)
	}
	if got := page.AppendJSON(nil); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got, want.Bytes())
	}
	empty := &contracts.DeadlinePage{Data: []contracts.DeadlineRow{}}
	want.Reset()
	if err := enc.Encode(empty); err != nil {
		t.Fatal(err)
	}
	if got := empty.AppendJSON(nil); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("empty page: %s, want %s", got, want.Bytes())
	}
}

package imports_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// parentForm is the multipart body of an upload into a parent record.
func parentForm(t testing.TB, entity, parent, name string, data []byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range map[string]string{"entity": entity, "parent_id": parent} {
		if v == "" {
			continue
		}
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

func (f *fixture) uploadInto(t testing.TB, as, entity, parent, name string, data []byte) apptest.Response {
	t.Helper()
	body, ct := parentForm(t, entity, parent, name, data)
	return f.ta.Do("POST", "/uploadxlsx/", f.ta.Token(as), body, "Content-Type", ct, "Accept-Language", "en")
}

var positionMapping = map[string]string{
	"Name": "invoiceposition_name", "Cost type": "costtype_id", "Total units": "total_units", "Customer units": "units_customer",
	"Flat rate": "flat_rate", "Amount total": "amount_total", "Amount customer": "amount_customer", "Apportionable": "apportionable",
	"External cost type": "externalcosttype_id",
}

const positionHeadings = "Name;Cost type;Total units;Customer units;Flat rate;Amount total;Amount customer;Apportionable;External cost type\n"

// TestPositionImport imports the positions of one invoice (decision 0024):
// the invoice is fixed by the upload, not a column; cost types are named
// by name or by an external cost type mapped to exactly one; a bad row
// shows its errors and nothing is written; a good file writes every row
// into that invoice.
func TestPositionImport(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		invoiceA := f.one(t, `SELECT MIN(invoice_id) FROM invoice WHERE company_id = ?`, f.companyA1)
		invoiceB := f.one(t, `SELECT MIN(invoice_id) FROM invoice WHERE company_id = ?`, f.companyB1)
		janitor := f.one(t, `SELECT costtype_id FROM costtype WHERE costtype_name = 'Hausmeister'`)
		external := f.one(t, `SELECT externalcosttype_id FROM externalcosttype WHERE externalcosttype_name = 'Hauswart und Haustechnik'`)
		if _, err := d.ExecContext(t.Context(), `INSERT INTO costtype_externalcosttype (costtype_id, externalcosttype_id) VALUES (?, ?)`, janitor, external); err != nil {
			t.Fatal(err)
		}
		count := func() int64 { return f.one(t, `SELECT COUNT(*) FROM invoiceposition`) }
		parent := fmt.Sprint(invoiceA)

		t.Run("the parent is required, readable, and only for entities that have one", func(t *testing.T) {
			file := []byte(positionHeadings + "X;Hausmeister;10;1;0;100;10;1;Hauswart und Haustechnik\n")
			for _, c := range []struct {
				name, as, entity, parent string
				status                   int
				want                     string
			}{
				{"no invoice", admin, "invoiceposition", "", http.StatusUnprocessableEntity, `"parent_id"`},
				{"not a number", admin, "invoiceposition", "abc", http.StatusUnprocessableEntity, `"parent_id"`},
				{"missing invoice", admin, "invoiceposition", "99999999", http.StatusNotFound, ""},
				{"a user who may not import positions", lead, "invoiceposition", fmt.Sprint(invoiceB), http.StatusForbidden, ""},
				{"a parent for points of sale", admin, "pos", parent, http.StatusUnprocessableEntity, `"parent_id"`},
			} {
				before := f.one(t, `SELECT COUNT(*) FROM data_import`)
				res := f.uploadInto(t, c.as, c.entity, c.parent, "positions.csv", file)
				if res.Status != c.status || !strings.Contains(string(res.Body), c.want) {
					t.Errorf("%s: %d %s", c.name, res.Status, res.Body)
				}
				if after := f.one(t, `SELECT COUNT(*) FROM data_import`); after != before {
					t.Errorf("%s: an import was stored", c.name)
				}
			}
		})

		t.Run("the invoice is no column; a bad row shows its errors and nothing is written", func(t *testing.T) {
			res := f.uploadInto(t, admin, "invoiceposition", parent, "positions.csv", []byte(positionHeadings+
				"Hausmeister;Hausmeister;100;10;0;1000;100;1;Hauswart und Haustechnik\n"+
				"Too many units;Hausmeister;10;20;0;100;200;1;Hauswart und Haustechnik\n"+
				"Not a number;Hausmeister;10;1;0;abc;10;1;Hauswart und Haustechnik\n"+
				"Unknown cost type;Gibt es nicht;10;1;0;100;10;1;Hauswart und Haustechnik\n"))
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			if strings.Contains(string(res.Body), `"name":"invoice_id"`) {
				t.Errorf("invoice_id is offered as a column: %s", res.Body)
			}
			var up uploadAnswer
			res.JSON(t, &up)
			for h, field := range positionMapping {
				if up.SuggestedMapping[h] != field {
					t.Errorf("%q suggested %q, want %q", h, up.SuggestedMapping[h], field)
				}
			}
			before := count()
			status, v, body := f.validate(t, admin, up.ImportID, positionMapping)
			if status != http.StatusOK || v.Valid != 1 || v.Invalid != 3 {
				t.Fatalf("validate: %d %+v %s", status, v, body)
			}
			want := map[int]string{3: "units_customer", 4: "amount_total", 5: "costtype_id"}
			for _, e := range v.Errors {
				if want[e.Row] != "" && e.Loc[2] == want[e.Row] {
					delete(want, e.Row)
				}
			}
			if len(want) > 0 {
				t.Errorf("errors missing for %v: %+v", want, v.Errors)
			}
			if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != http.StatusUnprocessableEntity {
				t.Errorf("commit of an invalid import: %d %s", res.Status, res.Body)
			}
			if count() != before {
				t.Error("positions were written")
			}
		})

		t.Run("a good file writes every row into the invoice; cost types by name or external cost type", func(t *testing.T) {
			res := f.uploadInto(t, admin, "invoiceposition", parent, "positions.csv", []byte(positionHeadings+
				"Imported by name;Hausmeister;100;10;0;1000,50;100,05;1;Müllbeseitigung\n"+
				"Imported by external;Hauswart und Haustechnik;50;5;1;500;50;0;\n"))
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			var up uploadAnswer
			res.JSON(t, &up)
			// The mapping validated before is remembered for the user.
			for h, field := range positionMapping {
				if up.SuggestedMapping[h] != field {
					t.Errorf("remembered %q → %q, suggested %q", h, field, up.SuggestedMapping[h])
				}
			}
			before := count()
			if status, v, body := f.validate(t, admin, up.ImportID, positionMapping); status != http.StatusOK || v.Valid != 2 || v.Invalid != 0 {
				t.Fatalf("validate: %d %+v %s", status, v, body)
			}
			if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != http.StatusOK {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			if got := count(); got != before+2 {
				t.Fatalf("positions %d, want %d", got, before+2)
			}
			if n := f.one(t, `SELECT COUNT(*) FROM invoiceposition WHERE invoice_id = ? AND costtype_id = ?
				AND invoiceposition_name IN ('Imported by name', 'Imported by external')`, invoiceA, janitor); n != 2 {
				t.Errorf("positions in the invoice with the cost type: %d", n)
			}
			if n := f.one(t, `SELECT COUNT(*) FROM invoiceposition WHERE invoiceposition_name = 'Imported by external' AND externalcosttype_id = ?`, external); n != 1 {
				t.Error("the external cost type the file named is not kept")
			}
			if n := f.one(t, `SELECT COUNT(*) FROM invoiceposition p JOIN externalcosttype e ON e.externalcosttype_id = p.externalcosttype_id
				WHERE p.invoiceposition_name = 'Imported by name' AND e.externalcosttype_name = 'Müllbeseitigung'`); n != 1 {
				t.Error("the external cost type column was not kept")
			}
		})
	})
}

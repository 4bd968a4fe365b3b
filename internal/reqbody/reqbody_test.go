package reqbody_test

import (
	"encoding/json"
	"errors"
	"testing"

	"portfolio/internal/apperr"
	"portfolio/internal/reqbody"
)

func TestTakeKeys(t *testing.T) {
	body := func(raw string) reqbody.Body {
		b, err := reqbody.Decode([]byte(raw), "body")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var doc, pos, typ int64
	b := body(`{"document_id": 7, "pos_id": "12", "documenttype_id": null, "note": "x"}`)
	if err := b.TakeKeys(reqbody.Required("document_id", &doc), reqbody.Required("pos_id", &pos), reqbody.Optional("documenttype_id", &typ)); err != nil {
		t.Fatal(err)
	}
	if doc != 7 || pos != 12 || typ != 0 {
		t.Errorf("keys %d %d %d, want 7 12 0", doc, pos, typ)
	}
	if _, left := b["document_id"]; left || b["note"] != "x" {
		t.Errorf("the keys were not taken out, or another member was: %v", b)
	}
	for raw, field := range map[string]string{
		`{"pos_id": 1}`:                         "document_id",
		`{"document_id": "seven", "pos_id": 1}`: "document_id",
		`{"document_id": 1, "pos_id": 1.5}`:     "pos_id",
	} {
		err := body(raw).TakeKeys(reqbody.Required("document_id", &doc), reqbody.Required("pos_id", &pos))
		var ae *apperr.Error
		if !errors.As(err, &ae) {
			t.Errorf("%s: %v, want a field error", raw, err)
			continue
		}
		out, _ := json.Marshal(ae)
		if !json.Valid(out) || !containsField(ae, field) {
			t.Errorf("%s: error %s does not name %s", raw, out, field)
		}
	}
}

func containsField(e *apperr.Error, field string) bool {
	for _, f := range e.Fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

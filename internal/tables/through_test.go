package tables_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/testkit"
)

// TestThroughFieldsListed proves, for every entity with a field stored
// through a relation (multi-selects such as an invoice's areas, a user's
// role), that the generic list answers the field's ids and their labels
// when asked for them as columns, that the read answers the same, that the
// labels are the referenced rows' default labels in the order of the ids,
// and that such a field is left out of sorting and filtering (served as
// not sortable; the server refuses it with 422, never 500).
func TestThroughFieldsListed(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		reg := schema.Default()
		tested := 0
		for _, ent := range schema.All() {
			var fields []*schema.Field
			for i := range ent.Fields {
				if f := &ent.Fields[i]; f.Through != "" && !f.Internal && !f.WriteOnly {
					fields = append(fields, f)
				}
			}
			if len(fields) == 0 || ent.Limits.NoGenericList {
				continue
			}
			tested++
			t.Run(ent.Name, func(t *testing.T) {
				e.t, s.t = t, t
				id := s.fresh(ent.Name, nil)
				want := map[string][]int64{}
				for _, f := range fields {
					want[f.Name] = linkRows(t, e, s, reg, ent, f, id)
				}
				var columns []string
				for _, f := range fields {
					columns = append(columns, f.Name, f.Name+"__label")
				}
				a := e.list(admin, obj{"entity": ent.Name, "columns": columns,
					"filter": []obj{{"field": ent.PK, "op": "eq", "value": id}}})
				if len(a.Data.Data) != 1 {
					t.Fatalf("list: want the row %d, got %v", id, a.Data.Data)
				}
				row := a.Data.Data[0]
				read := e.mustOK(admin, obj{"action": "read", "entity": ent.Name, "id": id})
				for _, f := range fields {
					ids, labels := throughValue(t, f, row[f.Name]), throughLabels(t, f, row[f.Name+"__label"])
					if !slices.Equal(ids, want[f.Name]) {
						t.Errorf("%s: list answers %v, want %v", f.Name, ids, want[f.Name])
					}
					if got := throughValue(t, f, read[f.Name]); !slices.Equal(got, ids) {
						t.Errorf("%s: read answers %v, list %v", f.Name, got, ids)
					}
					if got := throughLabels(t, f, read[f.Name+"__label"]); !slices.Equal(got, labels) {
						t.Errorf("%s: read labels %q, list labels %q", f.Name, got, labels)
					}
					target, _ := reg.Entity(f.Ref)
					wantLabels := labelsOf(t, e, target, ids)
					if !slices.Equal(labels, wantLabels) {
						t.Errorf("%s: labels %q, want %q", f.Name, labels, wantLabels)
					}
					for _, a := range a.Attributes {
						if a["attribute"] == f.Name && a["sortable"] == true {
							t.Errorf("%s is served as sortable", f.Name)
						}
					}
					for name, body := range map[string]obj{
						"order":  {"action": "read-rich", "entity": ent.Name, "order_by": f.Name},
						"filter": {"action": "read-rich", "entity": ent.Name, "filter": []obj{{"field": f.Name, "op": "eq", "value": 1}}},
					} {
						if res := e.api(admin, body); res.Status != http.StatusUnprocessableEntity {
							t.Errorf("%s by %s: %d, want 422: %s", name, f.Name, res.Status, clip(string(res.Body)))
						}
					}
				}
			})
		}
		if tested < 4 {
			t.Fatalf("only %d entities with multi-selects found", tested)
		}
	})
}

// linkRows links record id of ent to fresh rows of f's target (two for a
// multi-select, one otherwise), replacing what the sample stored, and
// returns their ids in ascending order.
func linkRows(t *testing.T, e *env, s *sampler, reg *schema.Registry, ent *schema.Entity, f *schema.Field, id int64) []int64 {
	t.Helper()
	rel, _ := ent.Relation(f.Through)
	l, _ := reg.Link(rel.Link)
	own, other, _ := l.End(ent.Name)
	ctx := context.Background()
	if _, err := e.DB.ExecContext(ctx, fmt.Sprintf(`DELETE FROM "%s" WHERE "%s" = ?`, l.Table, own.Column), id); err != nil {
		t.Fatalf("clear %s: %v", l.Table, err)
	}
	n := 1
	if f.Multiple {
		n = 2
	}
	var ids []int64
	for range n {
		x := s.fresh(f.Ref, nil)
		if _, err := e.DB.ExecContext(ctx, fmt.Sprintf(`INSERT INTO "%s" ("%s", "%s") VALUES (?, ?)`, l.Table, own.Column, other.Column), id, x); err != nil {
			t.Fatalf("link %s: %v", l.Table, err)
		}
		ids = append(ids, x)
	}
	slices.Sort(ids)
	return ids
}

// throughValue reads a through field's answer: an array of ids, or one id
// (or null) for a single select.
func throughValue(t *testing.T, f *schema.Field, v any) []int64 {
	t.Helper()
	if !f.Multiple {
		if v == nil {
			return []int64{}
		}
		n, ok := v.(float64)
		if !ok {
			t.Fatalf("%s: %T %v, want one id", f.Name, v, v)
		}
		return []int64{int64(n)}
	}
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("%s: %T %v, want an array of ids", f.Name, v, v)
	}
	out := []int64{}
	for _, x := range list {
		out = append(out, int64(x.(float64)))
	}
	return out
}

// throughLabels reads a through field's labels: an array of strings, or
// one string for a single select.
func throughLabels(t *testing.T, f *schema.Field, v any) []string {
	t.Helper()
	if !f.Multiple {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s__label: %T %v, want a string", f.Name, v, v)
		}
		return []string{s}
	}
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("%s__label: %T %v, want an array of labels", f.Name, v, v)
	}
	out := []string{}
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("%s__label: item %T %v, want a string", f.Name, x, x)
		}
		out = append(out, s)
	}
	return out
}

// labelsOf is the default label of each of the rows ids of target, read
// from their label fields (a reference's label, numbers as the API
// answers them), joined by spaces.
func labelsOf(t *testing.T, e *env, target *schema.Entity, ids []int64) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		row := e.mustOK(admin, obj{"action": "read", "entity": target.Name, "id": id})
		var parts []string
		for _, name := range target.Label {
			v := row[name]
			if l, ok := row[name+"__label"]; ok {
				v = l
			}
			if v != nil && v != "" {
				parts = append(parts, fmt.Sprint(v))
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

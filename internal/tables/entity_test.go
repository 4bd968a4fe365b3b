package tables_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestEveryEntity runs the generic lifecycle over every entity of the
// registry with sample rows built from the definitions: create, read, a
// filtered and ordered list, update, a stale update, delete, and a delete
// refused because another row still refers to the record. Limits answer
// 405.
func TestEveryEntity(t *testing.T) {
	texts := i18n.MustLoad()
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		for _, ent := range schema.All() {
			t.Run(ent.Name, func(t *testing.T) {
				e.t, s.t = t, t
				lifecycle(t, e, s, ent, texts)
			})
		}
	})
}

func lifecycle(t *testing.T, e *env, s *sampler, ent *schema.Entity, texts *i18n.Catalog) {
	id := createStep(t, e, s, ent)
	res := e.api(admin, obj{"action": "read", "entity": ent.Name, "id": id})
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), fmt.Sprintf(`"%s":%d`, ent.PK, id)) {
		t.Fatalf("read: %d %s", res.Status, clip(string(res.Body)))
	}
	listStep(t, e, ent, id)
	updateStep(t, e, s, ent, id)
	deleteStep(t, e, s, ent, id, texts)
}

func createStep(t *testing.T, e *env, s *sampler, ent *schema.Entity) int64 {
	if !tables.CreatableGenerically(ent) {
		res := e.api(admin, obj{"action": "create", "entity": ent.Name, "data": obj{}})
		if res.Status != http.StatusMethodNotAllowed {
			t.Fatalf("create of a no-create entity: %d %s", res.Status, res.Body)
		}
		return s.insertRaw(ent, nil)
	}
	res := e.api(admin, obj{"action": "create", "entity": ent.Name, "data": s.data(ent, nil)})
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, clip(string(res.Body)))
	}
	var out struct{ Data map[string]any }
	res.JSON(t, &out)
	if v := out.Data["row_version"]; v != float64(1) {
		t.Errorf("new row_version %v, want 1", v)
	}
	return id(out.Data, ent.PK)
}

func listStep(t *testing.T, e *env, ent *schema.Entity, id int64) {
	body := obj{"action": "read-rich", "entity": ent.Name, "count": true, "order_by": orderColumn(ent), "order_dir": "DESC",
		"filter": []obj{{"field": ent.PK, "op": "eq", "value": id}}}
	res := e.api(admin, body)
	if ent.Limits.NoGenericList {
		if res.Status != http.StatusMethodNotAllowed {
			t.Fatalf("list of a no-list entity: %d %s", res.Status, res.Body)
		}
		return
	}
	var a listAnswer
	if res.Status != http.StatusOK {
		t.Fatalf("list: %d %s", res.Status, clip(string(res.Body)))
	}
	res.JSON(t, &a)
	if len(a.Data.Data) != 1 || a.Data.Total == nil || *a.Data.Total != 1 || a.Data.HasMore {
		t.Fatalf("list: want exactly the row %d, got %s", id, clip(string(res.Body)))
	}
	if len(a.Attributes) == 0 {
		t.Errorf("list without attributes")
	}
}

// orderColumn is a sortable column: the first label field when stored,
// else the key.
func orderColumn(ent *schema.Entity) string {
	for _, l := range ent.Label {
		if f, ok := ent.Field(l); ok && f.Stored() && !f.WriteOnly {
			if f.Ref != "" {
				return l + "__label"
			}
			return l
		}
	}
	return ent.PK
}

func updateStep(t *testing.T, e *env, s *sampler, ent *schema.Entity, id int64) {
	f, v := s.changeFor(ent)
	if ent.Limits.NoUpdate || f == nil {
		if ent.Limits.NoUpdate {
			res := e.api(admin, obj{"action": "update", "entity": ent.Name, "id": id, "row_version": 1, "data": obj{}})
			if res.Status != http.StatusMethodNotAllowed {
				t.Fatalf("update of a no-update entity: %d %s", res.Status, res.Body)
			}
		} else {
			t.Logf("no field to change generically")
		}
		return
	}
	row := e.mustOK(admin, obj{"action": "update", "entity": ent.Name, "id": id, "row_version": 1, "data": obj{f.Name: v}})
	if row["row_version"] != float64(2) {
		t.Errorf("row_version after update %v, want 2", row["row_version"])
	}
	if fmt.Sprint(row[f.Name]) != fmt.Sprint(v) {
		t.Errorf("%s after update %v, want %v", f.Name, row[f.Name], v)
	}
	res := e.api(admin, obj{"action": "update", "entity": ent.Name, "id": id, "row_version": 1, "data": obj{f.Name: v}})
	if res.Status != http.StatusConflict || !strings.Contains(string(res.Body), "Someone else changed this record meanwhile") {
		t.Fatalf("stale update: %d %s", res.Status, res.Body)
	}
}

// changeFor picks a field every row of ent may change and a new value.
func (s *sampler) changeFor(ent *schema.Entity) (*schema.Field, any) {
	var flag *schema.Field
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if !f.Writable() || !f.Stored() || f.Ref != "" || len(f.Options) > 0 || f.Immutable || f.HiddenOnUpdate ||
			f.ShowWhen != nil || f.WriteOnly || crossField(f) {
			continue
		}
		switch f.Type {
		case schema.TypeString, schema.TypeInt, schema.TypeDecimal:
			return f, s.scalar(ent, f, 1000+s.seq)
		case schema.TypeBool:
			if flag == nil {
				flag = f
			}
		}
	}
	if flag != nil {
		return flag, 1 - mustInt(flag.Default)
	}
	return nil, nil
}

// crossField reports rules that compare with another field.
func crossField(f *schema.Field) bool {
	for _, r := range f.Rules {
		if r.Field != "" || r.Kind == schema.RuleNotPast {
			return true
		}
	}
	return false
}

func mustInt(l schema.Literal) int64 { n, _ := l.Int64(); return n }

func deleteStep(t *testing.T, e *env, s *sampler, ent *schema.Entity, id int64, texts *i18n.Catalog) {
	version := 2
	if f, _ := s.changeFor(ent); f == nil || ent.Limits.NoUpdate {
		version = 1
	}
	res := e.api(admin, obj{"action": "delete", "entity": ent.Name, "id": id, "row_version": version})
	if ent.Limits.NoDelete {
		if res.Status != http.StatusMethodNotAllowed {
			t.Fatalf("delete of a no-delete entity: %d %s", res.Status, res.Body)
		}
		return
	}
	if res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, clip(string(res.Body)))
	}
	if res := e.api(admin, obj{"action": "read", "entity": ent.Name, "id": id}); res.Status != http.StatusNotFound {
		t.Fatalf("read after delete: %d", res.Status)
	}
	ref, field := referrerOf(ent)
	if ref == nil {
		return
	}
	x := s.fresh(ent.Name, nil)
	s.fresh(ref.Name, obj{field: x})
	res = e.api(admin, obj{"action": "delete", "entity": ent.Name, "id": x, "row_version": 1})
	want := "is still used by 1 " + texts.T("en", "entity."+ref.Name, nil)
	if res.Status != http.StatusConflict || !strings.Contains(string(res.Body), want) {
		t.Fatalf("referenced delete: %d %s, want %q", res.Status, res.Body, want)
	}
}

// referrerOf finds an entity whose rows can refer to ent through a plain
// foreign key that blocks deletes.
func referrerOf(ent *schema.Entity) (*schema.Entity, string) {
	for _, other := range schema.All() {
		if other.Name == ent.Name || !tables.CreatableGenerically(other) {
			continue
		}
		for i := range other.Fields {
			f := &other.Fields[i]
			if f.Ref == ent.Name && f.Stored() && f.Through == "" && f.OnDelete == "" && f.Writable() &&
				!f.HiddenOnCreate && f.ShowWhen == nil {
				return other, f.Name
			}
		}
	}
	return nil, ""
}

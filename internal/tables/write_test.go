package tables_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// labelRows adds attribute_i18n texts so messages show translated labels.
func labelRows(t *testing.T, d *db.DB, rows ...[3]string) {
	t.Helper()
	for _, r := range rows {
		if _, err := d.ExecContext(context.Background(), `INSERT INTO attribute_i18n (attribute_name, attribute_lang, attribute_nice_name) VALUES (?, ?, ?)
			ON CONFLICT (attribute_name, attribute_lang) DO UPDATE SET attribute_nice_name = excluded.attribute_nice_name`,
			r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestValidationMessages(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		// Labels as an administrator may have edited them (the messages
		// must show whatever the table holds).
		labelRows(t, d, [3]string{"pos_name", "en", "Name"}, [3]string{"pos_name", "de", "Filialname"}, [3]string{"pos_name", "fr", "Nom du point de vente"},
			[3]string{"contract_begin_date", "en", "Begin date"}, [3]string{"contract_begin_date", "de", "Vertragsbeginn"},
			[3]string{"contract_begin_date", "fr", "Début du contrat"}, [3]string{"company_shortname", "en", "Short name"},
			[3]string{"pos_first_year", "en", "First year"}, [3]string{"indexclause_minimal_percent_change", "en", "Minimal percent change"},
			[3]string{"indexclause_minimal_percent_change", "de", "Mindeständerung in Prozent"}, [3]string{"company_id", "en", "Company"},
			[3]string{"total_units", "en", "Total units"}, [3]string{"total_units", "fr", "Unités totales"},
			[3]string{"customergroup_id", "en", "Customer group"}, [3]string{"ticket_yellow_deadline", "en", "Yellow deadline"},
			[3]string{"pos_opening_date", "en", "Opening date"})
		pos := func(over obj) obj {
			data := s.data(mustEntity("pos"), obj{"company_id": 1})
			for k, v := range over {
				data[k] = v
			}
			return obj{"action": "create", "entity": "pos", "data": data}
		}
		create := func(entity string, over obj) obj {
			return obj{"action": "create", "entity": entity, "data": s.data(mustEntity(entity), over)}
		}
		noName := pos(obj{"pos_name": nil})
		contract := create("contract", obj{"contract_name": "Abgelehnt", "contract_begin_date": "2024-05-01", "contract_end_date": "2024-04-30"})
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02T15:04:05Z")
		e.run(t, []scenario{
			{name: "required", as: admin, body: noName, status: 422,
				want: []string{`{"loc":["body","pos_name"],"msg":"Name is required","type":"missing"}`}},
			{name: "required in German with the translated label", as: admin, lang: "de", body: noName, status: 422,
				want: []string{`"msg":"Filialname ist erforderlich"`}},
			{name: "required in French with the translated label", as: admin, lang: "fr", body: noName, status: 422,
				want: []string{`"msg":"Nom du point de vente est obligatoire"`}},
			{name: "max length", as: admin, body: create("company", obj{"customergroup_id": 1, "company_shortname": "ABCDEFGHIJKLMNOPQRSTU"}), status: 422,
				want: []string{`"msg":"Short name must contain maximum 20 characters","type":"max"`}},
			{name: "max length in German", as: admin, lang: "de", body: create("company", obj{"customergroup_id": 1, "company_shortname": "ABCDEFGHIJKLMNOPQRSTU"}),
				status: 422, want: []string{"darf höchstens 20 Zeichen enthalten"}},
			{name: "max value", as: admin, body: pos(obj{"pos_first_year": 2200}), status: 422,
				want: []string{`"msg":"First year must be lower than 2100","type":"max_value"`}},
			{name: "max value in French", as: admin, lang: "fr", body: pos(obj{"pos_first_year": 2200}), status: 422,
				want: []string{"doit être inférieur à 2100"}},
			{name: "min value", as: admin, body: pos(obj{"pos_first_year": 1800}), status: 422,
				want: []string{"must be at least 1900"}},
			{name: "email", as: admin, body: create("user", obj{"user_email": "not an address"}), status: 422,
				want: []string{`"loc":["body","user_email"]`, "must be a valid email address"}},
			{name: "regex with its own message", as: admin, body: create("currency", obj{"currency_iso4217": "eur"}), status: 422,
				want: []string{`"msg":"Enter the three-letter ISO 4217 code, e.g. EUR.","type":"regex"`}},
			{name: "date after", as: admin, body: contract, status: 422,
				want: []string{`{"loc":["body","contract_end_date"],"msg":"This date must be after Begin date","type":"date_after"}`}},
			{name: "date after in German", as: admin, lang: "de", body: contract, status: 422,
				want: []string{`"msg":"Dieses Datum muss nach Vertragsbeginn liegen"`}},
			{name: "date after in French", as: admin, lang: "fr", body: contract, status: 422,
				want: []string{`"msg":"Cette date doit être postérieure à Début du contrat"`}},
			{name: "required if null", as: admin, status: 422,
				body: create("indexclause", obj{"change_in_percent": 0, "indexclause_minimal_point_change": nil}),
				want: []string{`"loc":["body","indexclause_minimal_point_change"]`, "This field is required if Minimal percent change is empty"}},
			{name: "required if null in German", as: admin, lang: "de", status: 422,
				body: create("indexclause", obj{"change_in_percent": 0, "indexclause_minimal_point_change": nil}),
				want: []string{"Dieses Feld ist erforderlich, wenn Mindeständerung in Prozent leer ist"}},
			{name: "exactly one of two", as: admin, status: 422,
				body: create("bankdata", obj{"company_id": 1, "partnercompany_id": s.ensure("partnercompany")}),
				want: []string{`"loc":["body","partnercompany_id"]`, "Fill in either this field or Company, not both"}},
			{name: "lower", as: admin, status: 422,
				body: create("invoiceposition", obj{"total_units": 5, "units_customer": 10}),
				want: []string{`{"loc":["body","units_customer"],"msg":"The value must be lower than Total units","type":"lower"}`}},
			{name: "lower in French", as: admin, lang: "fr", status: 422,
				body: create("invoiceposition", obj{"total_units": 5, "units_customer": 10}),
				want: []string{"La valeur doit être inférieure à Unités totales"}},
			{name: "required if", as: admin, status: 422,
				body: create("team", obj{"team_type": "extern_client", "team_for_all_customer": 0, "customergroup_id": []any{}}),
				want: []string{`{"loc":["body","customergroup_id"],"msg":"Customer group is required","type":"missing"}`}},
			{name: "not in the past", as: admin, status: 422,
				body: create("ticket", obj{"ticket_yellow_deadline": yesterday}),
				want: []string{`"loc":["body","ticket_yellow_deadline"]`, "Yellow deadline must not be in the past"}},
			{name: "option", as: admin, status: 422, body: create("team", obj{"team_type": "nonsense"}),
				want: []string{"must be one of the offered values"}},
			{name: "type", as: admin, status: 422, body: pos(obj{"pos_opening_date": "31.12.2024"}),
				want: []string{`"msg":"Opening date must be a date (YYYY-MM-DD)","type":"type_error"`}},
			{name: "type in German", as: admin, lang: "de", status: 422, body: pos(obj{"pos_first_year": "x"}),
				want: []string{"muss eine ganze Zahl sein"}},
			{name: "several fields at once", as: admin, status: 422, body: pos(obj{"pos_name": "", "pos_first_year": 3000}),
				want: []string{`"loc":["body","pos_name"]`, `"loc":["body","pos_first_year"]`}},
			{name: "defaults and derivations", as: admin, status: 201,
				body: create("contactperson", obj{"contactperson_firstname": "erika", "contactperson_lastname": "Mustermann"}),
				want: []string{`"contactperson_shortname":"EM"`}},
			{name: "default applied", as: admin, status: 201, body: pos(obj{"pos_internal_id": nil}),
				want: []string{`"pos_internal_id":56`}},
		})
		// Nothing of a refused write is stored.
		var n int
		if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM contract WHERE contract_name = ?`, "Abgelehnt").Scan(&n); err != nil || n != 0 {
			t.Errorf("refused contracts stored: %d %v", n, err)
		}
	})
}

func TestMassAssignmentAndLimits(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		user := s.data(mustEntity("user"), nil)
		with := func(data obj, k string, v any) obj {
			out := obj{}
			for a, b := range data {
				out[a] = b
			}
			out[k] = v
			return out
		}
		team := s.fresh("team", obj{"team_for_all_customer": 1})
		action := s.fresh("contractaction", obj{"contractaction_type": "active_option"})
		textmodule := s.insertRaw(mustEntity("textmodule"), nil)
		template := s.insertRaw(mustEntity("texttemplate"), nil)
		update := func(entity string, id int64, data obj) obj {
			return obj{"action": "update", "entity": entity, "id": id, "row_version": 1, "data": data}
		}
		e.run(t, []scenario{
			{name: "client-chosen key", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "user_id", 77)},
				want: []string{`"loc":["body","user_id"]`, "cannot be changed here"}},
			{name: "hidden on create", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "user_locked", 1)},
				want: []string{`"loc":["body","user_locked"]`}},
			{name: "read-only", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "user_wrong_password_counter", 3)},
				want: []string{`"loc":["body","user_wrong_password_counter"]`}},
			{name: "derived", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "user_abbreviation", "ZZ")},
				want: []string{`"loc":["body","user_abbreviation"]`}},
			{name: "internal", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "user_email_normalized", "x@y.z")},
				want: []string{`"loc":["body","user_email_normalized"]`, "is not a field of this table"}},
			{name: "unknown", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "is_admin", 1)},
				want: []string{`"loc":["body","is_admin"]`}},
			{name: "label is not a field", as: admin, status: 422, body: obj{"action": "create", "entity": "user", "data": with(user, "company_id__label", "x")}},
			{name: "defaults may be sent back", as: admin, status: 201, body: obj{"action": "create", "entity": "user", "data": with(user, "user_locked", 0)},
				notWant: []string{`"user_password":`}},
			{name: "immutable on update", as: admin, status: 422, body: update("team", team, obj{"team_for_all_customer": 0}),
				want: []string{`"loc":["body","team_for_all_customer"]`}},
			{name: "unchanged immutable value passes", as: admin, status: 200, body: update("team", team, obj{"team_for_all_customer": 1})},
			{name: "not shown", as: admin, status: 422, body: update("contractaction", action, obj{"contractaction_resiliation_date": "2030-01-01"}),
				want: []string{`"loc":["body","contractaction_resiliation_date"]`, "does not apply to this record"}},
			{name: "update without row_version", as: admin, status: 422,
				body: obj{"action": "update", "entity": "team", "id": team, "data": obj{"team_name": "x"}}, want: []string{`"loc":["body","row_version"]`}},
			{name: "no create on text modules", as: admin, status: 405, body: obj{"action": "create", "entity": "textmodule", "data": obj{}},
				want: []string{"cannot be created"}},
			{name: "no delete on text modules", as: admin, status: 405, body: obj{"action": "delete", "entity": "textmodule", "id": textmodule, "row_version": 1}},
			{name: "text modules can be changed", as: admin, status: 200, body: update("textmodule", textmodule, obj{"textmodule_name": "Neu"})},
			{name: "text templates are read-only", as: admin, status: 405, body: update("texttemplate", template, obj{"texttemplate_name": "x"}),
				want: []string{"(text template) cannot be changed"}},
			{name: "history is read-only", as: admin, status: 405, body: obj{"action": "create", "entity": "trackrecord", "data": obj{}}},
			{name: "limit message in German", as: admin, lang: "de", status: 405, body: obj{"action": "create", "entity": "email", "data": obj{}},
				want: []string{"Einträge dieser Art (E-Mail) können nicht angelegt werden."}},
			{name: "no update right", as: lead, status: 403, body: update("team", team, obj{"team_name": "x"})},
		})
	})
}

func TestDeleteAndHistory(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		company := s.fresh("company", obj{"customergroup_id": 1})
		for i := 0; i < 3; i++ {
			s.fresh("pos", obj{"company_id": company}) // with a contact person of the company (one, shared)
		}
		s.fresh("user", obj{"company_id": company})
		del := obj{"action": "delete", "entity": "company", "id": company, "row_version": 1}
		tags := []int64{s.fresh("tag", nil), s.fresh("tag", nil), s.fresh("tag", nil)}
		unit := s.ensure("unit")
		position := s.fresh("invoiceposition", obj{"flat_rate": 0})
		posID := s.fresh("pos", obj{"company_id": 1, "pos_name": "Vorher"})
		e.mustOK(admin, obj{"action": "update", "entity": "pos", "id": posID, "row_version": 1, "data": obj{"pos_name": "Nachher"}})
		e.run(t, []scenario{
			{name: "referenced", as: admin, body: del, status: 409,
				want: []string{`"detail":"This company is still used by 1 user, 1 contact person and 3 points of sale."`, `"code":"referenced"`}},
			{name: "referenced in German", as: admin, lang: "de", body: del, status: 409,
				want: []string{"Dieser Eintrag (Firma) wird noch verwendet von: 1 Benutzer, 1 Ansprechpartner und 3 Verkaufsstellen."}},
			{name: "referenced in French", as: admin, lang: "fr", body: del, status: 409,
				want: []string{"Cet enregistrement (société) est encore utilisé par : 1 utilisateur, 1 interlocuteur et 3 points de vente."}},
			{name: "stale delete", as: admin, status: 409, body: obj{"action": "delete", "entity": "pos", "id": posID, "row_version": 1},
				want: []string{"Someone else changed this record meanwhile"}},
			{name: "delete needs remove", as: teamLead, status: 403, body: obj{"action": "delete", "entity": "pos", "id": posID, "row_version": 2}},
			{name: "bulk delete is all or nothing", as: admin, status: 409,
				body: obj{"action": "bulk-delete", "entity": "unit", "ids": []int64{unit, 999999}}},
			{name: "bulk delete", as: admin, status: 204, body: obj{"action": "bulk-delete", "entity": "tag", "ids": tags}},
			{name: "bulk deleted", as: admin, status: 200, body: obj{"action": "read-rich", "entity": "tag", "filter": []obj{{"field": "tag_id", "op": "in", "value": tags}}},
				want: []string{`"data":[]`}},
			{name: "bulk with a missing id", as: admin, status: 404, body: obj{"action": "bulk-delete", "entity": "pos", "ids": []int64{posID, 999999}}},
			{name: "update-field", as: admin, status: 200,
				body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "flat_rate", "value": 1, "row_version": 1},
				want: []string{`"flat_rate":1`, `"row_version":2`}},
			{name: "update-field of an unknown field", as: admin, status: 422,
				body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "nope", "value": 1, "row_version": 2}},
			{name: "history newest first with changes", as: admin, status: 200, body: obj{"action": "history", "entity": "pos", "id": posID},
				want: []string{`"trackrecord_type":"update"`, `"trackrecord_category":"pos"`, `"user_id__label":"Anna Admin"`,
					`{\"pos_name\":[\"Vorher\",\"Nachher\"]}`}},
			{name: "history needs read", as: lead, status: 403, body: obj{"action": "history", "entity": "invoiceposition", "id": position}},
		})
		// The pos still exists after the refused bulk delete.
		e.mustOK(admin, obj{"action": "read", "entity": "pos", "id": posID})
		var created int
		if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_row_id = ? AND trackrecord_type = 'create'`,
			posID).Scan(&created); err != nil || created != 1 {
			t.Errorf("create history rows %d %v", created, err)
		}
		_ = fmt.Sprint
	})
}

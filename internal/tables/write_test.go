package tables_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// labelRows adds attribute_i18n texts so messages show translated labels.
// labelRows writes attribute labels as an administrator's edit leaves them
// and makes the engine of e read them.
func labelRows(t *testing.T, e *env, rows ...[3]string) {
	t.Helper()
	d := e.DB
	for _, r := range rows {
		if _, err := d.ExecContext(context.Background(), `INSERT INTO attribute_i18n (attribute_name, attribute_lang, attribute_nice_name) VALUES (?, ?, ?)
			ON CONFLICT (attribute_name, attribute_lang) DO UPDATE SET attribute_nice_name = excluded.attribute_nice_name`,
			r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	tables.ForgetLabels(e.Engine)
}

func TestValidationMessages(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		// Labels as an administrator may have edited them (the messages
		// must show whatever the table holds).
		labelRows(t, e, [3]string{"pos_name", "en", "Name"}, [3]string{"pos_name", "de", "Filialname"}, [3]string{"pos_name", "fr", "Nom du point de vente"},
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
		e.run(t, []apptest.Scenario{
			{Name: "required", As: admin, Body: noName, Status: 422,
				Contains: []string{`{"loc":["body","pos_name"],"msg":"Name is required","type":"missing"}`}},
			{Name: "required in German with the translated label", As: admin, Header: lang("de"), Body: noName, Status: 422,
				Contains: []string{`"msg":"Filialname ist erforderlich"`}},
			{Name: "required in French with the translated label", As: admin, Header: lang("fr"), Body: noName, Status: 422,
				Contains: []string{`"msg":"Nom du point de vente est obligatoire"`}},
			{Name: "max length", As: admin, Body: create("company", obj{"customergroup_id": 1, "company_shortname": "ABCDEFGHIJKLMNOPQRSTU"}), Status: 422,
				Contains: []string{`"msg":"Short name must contain maximum 20 characters","type":"max"`}},
			{Name: "max length in German", As: admin, Header: lang("de"), Body: create("company", obj{"customergroup_id": 1, "company_shortname": "ABCDEFGHIJKLMNOPQRSTU"}),
				Status: 422, Contains: []string{"darf höchstens 20 Zeichen enthalten"}},
			{Name: "max value", As: admin, Body: pos(obj{"pos_first_year": 2200}), Status: 422,
				Contains: []string{`"msg":"First year must be lower than 2100","type":"max_value"`}},
			{Name: "max value in French", As: admin, Header: lang("fr"), Body: pos(obj{"pos_first_year": 2200}), Status: 422,
				Contains: []string{"doit être inférieur à 2100"}},
			{Name: "min value", As: admin, Body: pos(obj{"pos_first_year": 1800}), Status: 422,
				Contains: []string{"must be at least 1900"}},
			{Name: "email", As: admin, Body: create("user", obj{"user_email": "not an address"}), Status: 422,
				Contains: []string{`"loc":["body","user_email"]`, "must be a valid email address"}},
			{Name: "regex with its own message", As: admin, Body: create("currency", obj{"currency_iso4217": "eur"}), Status: 422,
				Contains: []string{`"msg":"Enter the three-letter ISO 4217 code, e.g. EUR.","type":"regex"`}},
			{Name: "date after", As: admin, Body: contract, Status: 422,
				Contains: []string{`{"loc":["body","contract_end_date"],"msg":"This date must be after Begin date","type":"date_after"}`}},
			{Name: "date after in German", As: admin, Header: lang("de"), Body: contract, Status: 422,
				Contains: []string{`"msg":"Dieses Datum muss nach Vertragsbeginn liegen"`}},
			{Name: "date after in French", As: admin, Header: lang("fr"), Body: contract, Status: 422,
				Contains: []string{`"msg":"Cette date doit être postérieure à Début du contrat"`}},
			{Name: "required if null", As: admin, Status: 422,
				Body:     create("indexclause", obj{"change_in_percent": 0, "indexclause_minimal_point_change": nil}),
				Contains: []string{`"loc":["body","indexclause_minimal_point_change"]`, "This field is required if Minimal percent change is empty"}},
			{Name: "required if null in German", As: admin, Header: lang("de"), Status: 422,
				Body:     create("indexclause", obj{"change_in_percent": 0, "indexclause_minimal_point_change": nil}),
				Contains: []string{"Dieses Feld ist erforderlich, wenn Mindeständerung in Prozent leer ist"}},
			{Name: "exactly one of two", As: admin, Status: 422,
				Body:     create("bankdata", obj{"company_id": 1, "partnercompany_id": s.ensure("partnercompany")}),
				Contains: []string{`"loc":["body","partnercompany_id"]`, "Fill in either this field or Company, not both"}},
			{Name: "lower", As: admin, Status: 422,
				Body:     create("invoiceposition", obj{"total_units": 5, "units_customer": 10}),
				Contains: []string{`{"loc":["body","units_customer"],"msg":"The value must be lower than Total units","type":"lower"}`}},
			{Name: "lower in French", As: admin, Header: lang("fr"), Status: 422,
				Body:     create("invoiceposition", obj{"total_units": 5, "units_customer": 10}),
				Contains: []string{"La valeur doit être inférieure à Unités totales"}},
			{Name: "required if", As: admin, Status: 422,
				Body:     create("team", obj{"team_type": "extern_client", "team_for_all_customer": 0, "customergroup_id": []any{}}),
				Contains: []string{`{"loc":["body","customergroup_id"],"msg":"Customer group is required","type":"missing"}`}},
			{Name: "not in the past", As: admin, Status: 422,
				Body:     create("ticket", obj{"ticket_yellow_deadline": yesterday}),
				Contains: []string{`"loc":["body","ticket_yellow_deadline"]`, "Yellow deadline must not be in the past"}},
			{Name: "option", As: admin, Status: 422, Body: create("team", obj{"team_type": "nonsense"}),
				Contains: []string{"must be one of the offered values"}},
			{Name: "type", As: admin, Status: 422, Body: pos(obj{"pos_opening_date": "31.12.2024"}),
				Contains: []string{`"msg":"Opening date must be a date (YYYY-MM-DD)","type":"type_error"`}},
			{Name: "type in German", As: admin, Header: lang("de"), Status: 422, Body: pos(obj{"pos_first_year": "x"}),
				Contains: []string{"muss eine ganze Zahl sein"}},
			{Name: "several fields at once", As: admin, Status: 422, Body: pos(obj{"pos_name": "", "pos_first_year": 3000}),
				Contains: []string{`"loc":["body","pos_name"]`, `"loc":["body","pos_first_year"]`}},
			{Name: "defaults and derivations", As: admin, Status: 201,
				Body:     create("contactperson", obj{"contactperson_firstname": "erika", "contactperson_lastname": "Mustermann"}),
				Contains: []string{`"contactperson_shortname":"EM"`}},
			{Name: "default applied", As: admin, Status: 201, Body: pos(obj{"pos_internal_id": nil}),
				Contains: []string{`"pos_internal_id":56`}},
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
		variable := s.insertRaw(mustEntity("texttemplate_variable"), nil)
		update := func(entity string, id int64, data obj) obj {
			return obj{"action": "update", "entity": entity, "id": id, "row_version": 1, "data": data}
		}
		e.run(t, []apptest.Scenario{
			{Name: "client-chosen key", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_id", 77)},
				Contains: []string{`"loc":["body","user_id"]`, "cannot be changed here"}},
			{Name: "hidden on create", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_locked", 1)},
				Contains: []string{`"loc":["body","user_locked"]`}},
			{Name: "read-only", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_wrong_password_counter", 3)},
				Contains: []string{`"loc":["body","user_wrong_password_counter"]`}},
			{Name: "derived", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_abbreviation", "ZZ")},
				Contains: []string{`"loc":["body","user_abbreviation"]`}},
			{Name: "internal", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_email_normalized", "x@y.z")},
				Contains: []string{`"loc":["body","user_email_normalized"]`, "is not a field of this table"}},
			{Name: "unknown", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "is_admin", 1)},
				Contains: []string{`"loc":["body","is_admin"]`}},
			{Name: "label is not a field", As: admin, Status: 422, Body: obj{"action": "create", "entity": "user", "data": with(user, "company_id__label", "x")}},
			{Name: "defaults may be sent back", As: admin, Status: 201, Body: obj{"action": "create", "entity": "user", "data": with(user, "user_locked", 0)},
				Absent: []string{`"user_password":`}},
			{Name: "immutable on update", As: admin, Status: 422, Body: update("team", team, obj{"team_for_all_customer": 0}),
				Contains: []string{`"loc":["body","team_for_all_customer"]`}},
			{Name: "unchanged immutable value passes", As: admin, Status: 200, Body: update("team", team, obj{"team_for_all_customer": 1})},
			{Name: "not shown", As: admin, Status: 422, Body: update("contractaction", action, obj{"contractaction_resiliation_date": "2030-01-01"}),
				Contains: []string{`"loc":["body","contractaction_resiliation_date"]`, "does not apply to this record"}},
			{Name: "update without row_version", As: admin, Status: 422,
				Body: obj{"action": "update", "entity": "team", "id": team, "data": obj{"team_name": "x"}}, Contains: []string{`"loc":["body","row_version"]`}},
			{Name: "no create on text modules", As: admin, Status: 405, Body: obj{"action": "create", "entity": "textmodule", "data": obj{}},
				Contains: []string{"cannot be created"}},
			{Name: "no delete on text modules", As: admin, Status: 405, Body: obj{"action": "delete", "entity": "textmodule", "id": textmodule, "row_version": 1}},
			{Name: "text modules can be changed", As: admin, Status: 200, Body: update("textmodule", textmodule, obj{"textmodule_name": "Neu"})},
			{Name: "text templates are read-only (their wording is a text module's)", As: admin, Status: 405,
				Body:     update("texttemplate", template, obj{"texttemplate_content_en": "<p>Dear {{recipient}}</p>"}),
				Contains: []string{"cannot be changed"}},
			{Name: "no update-field on text templates", As: admin, Status: 405,
				Body: obj{"action": "update-field", "entity": "texttemplate", "id": template, "row_version": 1, "field": "texttemplate_name", "value": "x"}},
			{Name: "no create on text templates", As: admin, Status: 405, Body: obj{"action": "create", "entity": "texttemplate", "data": obj{}}},
			{Name: "no delete on text templates", As: admin, Status: 405, Body: obj{"action": "delete", "entity": "texttemplate", "id": template, "row_version": 1}},
			{Name: "template variables are read-only", As: admin, Status: 405,
				Body:     update("texttemplate_variable", variable, obj{"texttemplate_variable_name": "x"}),
				Contains: []string{"cannot be changed"}},
			{Name: "history is read-only", As: admin, Status: 405, Body: obj{"action": "create", "entity": "trackrecord", "data": obj{}}},
			{Name: "limit message in German", As: admin, Header: lang("de"), Status: 405, Body: obj{"action": "create", "entity": "email", "data": obj{}},
				Contains: []string{"Einträge dieser Art (E-Mail) können nicht angelegt werden."}},
			{Name: "no update right", As: lead, Status: 403, Body: update("team", team, obj{"team_name": "x"})},
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
		e.run(t, []apptest.Scenario{
			{Name: "referenced", As: admin, Body: del, Status: 409,
				Contains: []string{`"detail":"This company is still used by 1 user, 1 contact person and 3 points of sale."`, `"code":"referenced"`}},
			{Name: "referenced in German", As: admin, Header: lang("de"), Body: del, Status: 409,
				Contains: []string{"Dieser Eintrag (Firma) wird noch verwendet von: 1 Benutzer, 1 Ansprechpartner und 3 Verkaufsstellen."}},
			{Name: "referenced in French", As: admin, Header: lang("fr"), Body: del, Status: 409,
				Contains: []string{"Cet enregistrement (société) est encore utilisé par : 1 utilisateur, 1 interlocuteur et 3 points de vente."}},
			{Name: "stale delete", As: admin, Status: 409, Body: obj{"action": "delete", "entity": "pos", "id": posID, "row_version": 1},
				Contains: []string{"Someone else changed this record meanwhile"}},
			{Name: "delete needs remove", As: teamLead, Status: 403, Body: obj{"action": "delete", "entity": "pos", "id": posID, "row_version": 2}},
			{Name: "bulk delete is all or nothing", As: admin, Status: 409,
				Body: obj{"action": "bulk-delete", "entity": "unit", "ids": []int64{unit, 999999}}},
			{Name: "bulk delete", As: admin, Status: 204, Body: obj{"action": "bulk-delete", "entity": "tag", "ids": tags}},
			{Name: "bulk deleted", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "tag", "filter": []obj{{"field": "tag_id", "op": "in", "value": tags}}},
				Contains: []string{`"data":[]`}},
			{Name: "bulk with a missing id", As: admin, Status: 404, Body: obj{"action": "bulk-delete", "entity": "pos", "ids": []int64{posID, 999999}}},
			{Name: "update-field", As: admin, Status: 200,
				Body:     obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "flat_rate", "value": 1, "row_version": 1},
				Contains: []string{`"flat_rate":1`, `"row_version":2`}},
			{Name: "update-field of an unknown field", As: admin, Status: 422,
				Body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "nope", "value": 1, "row_version": 2}},
			{Name: "history newest first with changes", As: admin, Status: 200, Body: obj{"action": "history", "entity": "pos", "id": posID},
				Contains: []string{`"trackrecord_type":"update"`, `"trackrecord_category":"pos"`, `"user_id__label":"Anna Admin"`,
					`{\"pos_name\":[\"Vorher\",\"Nachher\"]}`}},
			{Name: "history needs read", As: lead, Status: 403, Body: obj{"action": "history", "entity": "invoiceposition", "id": position}},
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

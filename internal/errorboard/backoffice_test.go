package errorboard_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
	"portfolio/internal/translations"
)

type outboxMessage struct {
	ID       int64
	To       string
	Subject  string
	Attempts int
	State    string
	SentAt   *time.Time `json:"sent_at"`
}

type translationRow struct {
	Table      string
	ID         int64
	Key        string
	Lang       string
	Text       string
	Shipped    string
	Edited     bool
	RowVersion int64 `json:"row_version"`
}

// TestBackofficeOutbox: the outbox lists the newest messages with their
// state (pending, retrying, given up, sent, dismissed), filtered by state;
// administrators only.
func TestBackofficeOutbox(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		now := time.Now().UTC()
		later := now.Add(time.Hour)
		for _, m := range []struct {
			subject  string
			attempts int
			err      any
			sent     any
			dismiss  any
		}{
			{"Outbox sent", 1, nil, now, nil},
			{"Outbox given up", 8, "550 no such user", nil, nil},
			{"Outbox retrying", 2, "421 try later", nil, nil},
			{"Outbox dismissed", 8, "550 no such user", nil, now},
		} {
			if _, err := d.ExecContext(ctx, `INSERT INTO mail_outbox (mail_from, mail_to, mail_subject, mail_text, created_at, next_attempt_at,
				mail_attempts, mail_error, sent_at, mail_dismissed_at) VALUES ('portfolio@demo.test', 'someone@example.test', ?, 'Hello', ?, ?, ?, ?, ?, ?)`,
				m.subject, now, later, m.attempts, m.err, m.sent, m.dismiss); err != nil {
				t.Fatal(err)
			}
		}
		get := func(user, query string, want int) []outboxMessage {
			t.Helper()
			r := ta.Do("GET", "/backoffice/outbox"+query, ta.Token(user), nil)
			if r.Status != want {
				t.Fatalf("%s GET /backoffice/outbox%s: %d %s", user, query, r.Status, r.Body)
			}
			var a struct{ Data []outboxMessage }
			if want == 200 {
				r.JSON(t, &a)
			}
			return a.Data
		}
		states := map[string]string{}
		for _, m := range get(admin, "", 200) {
			states[m.Subject] = m.State
		}
		for subject, want := range map[string]string{"Outbox sent": "sent", "Outbox given up": "given_up", "Outbox retrying": "retrying", "Outbox dismissed": "dismissed"} {
			if states[subject] != want {
				t.Errorf("%s is %q, want %q (all: %v)", subject, states[subject], want, states)
			}
		}
		if got := get(admin, "?state=given_up", 200); len(got) != 1 || got[0].Subject != "Outbox given up" || got[0].Attempts != 8 {
			t.Errorf("given up: %+v", got)
		}
		get(admin, "?state=lost", 422)
		get(teamLead, "", 403)
	})
}

// TestBackofficeTranslations: an administrator's edit of a UI text goes
// through the engine (row_version checked, history written), is listed
// beside the shipped text and survives the start's sync of shipped texts;
// the revert restores the shipped text. Administrators only.
func TestBackofficeTranslations(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		var id, version int64
		var shipped string
		if err := d.QueryRowContext(ctx, `SELECT translation_id, row_version, translation_text FROM translation
			WHERE translation_key = 'errors.title' AND translation_lang = 'de'`).Scan(&id, &version, &shipped); err != nil {
			t.Fatal(err)
		}
		list := func(query string) []translationRow {
			t.Helper()
			r := ta.Do("GET", "/backoffice/translations"+query, ta.Token(admin), nil)
			if r.Status != 200 {
				t.Fatalf("translations: %d %s", r.Status, r.Body)
			}
			var a struct{ Data []translationRow }
			r.JSON(t, &a)
			return a.Data
		}
		find := func(rows []translationRow) *translationRow {
			for i := range rows {
				if rows[i].Table == "translation" && rows[i].ID == id {
					return &rows[i]
				}
			}
			return nil
		}
		if find(list("")) != nil {
			t.Fatal("an untouched text is listed as edited")
		}
		path := fmt.Sprintf("/backoffice/translations/translation/%d", id)
		if r := ta.Do("PUT", path, ta.Token(teamLead), map[string]any{"text": "X", "row_version": version}); r.Status != 403 {
			t.Errorf("team lead edits: %d", r.Status)
		}
		r := ta.Do("PUT", path, ta.Token(admin), map[string]any{"text": "Störungen", "row_version": version})
		if r.Status != 200 {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		var edited translationRow
		r.JSON(t, &edited)
		if edited.Text != "Störungen" || !edited.Edited || edited.Shipped != shipped || edited.RowVersion != version+1 {
			t.Errorf("edited: %+v", edited)
		}
		if r := ta.Do("PUT", path, ta.Token(admin), map[string]any{"text": "Stale", "row_version": version}); r.Status != 409 {
			t.Errorf("stale row_version: %d %s", r.Status, r.Body)
		}
		if r := ta.Do("PUT", "/backoffice/translations/users/1", ta.Token(admin), map[string]any{"text": "x", "row_version": 1}); r.Status != 404 {
			t.Errorf("another table: %d", r.Status)
		}
		if got := find(list("?q=st%C3%B6rungen")); got == nil || got.Key != "errors.title" {
			t.Errorf("the edit is not listed: %+v", got)
		}
		var history int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'translation' AND trackrecord_row_id = ?`, id).Scan(&history); err != nil || history == 0 {
			t.Errorf("history rows of the edit: %d (%v)", history, err)
		}
		// The next start's sync keeps the edit.
		if _, err := translations.Sync(ctx, d, ta.Catalog); err != nil {
			t.Fatal(err)
		}
		var text string
		if err := d.QueryRowContext(ctx, `SELECT translation_text FROM translation WHERE translation_id = ?`, id).Scan(&text); err != nil || text != "Störungen" {
			t.Errorf("after the sync: %q (%v)", text, err)
		}
		r = ta.Do("POST", path+"/revert", ta.Token(admin), map[string]any{"row_version": edited.RowVersion})
		if r.Status != 200 {
			t.Fatalf("revert: %d %s", r.Status, r.Body)
		}
		var reverted translationRow
		r.JSON(t, &reverted)
		if reverted.Text != shipped || reverted.Edited {
			t.Errorf("reverted: %+v", reverted)
		}
		if find(list("")) != nil {
			t.Error("a reverted text is still listed")
		}
	})
}

// TestBackofficeRightsGeneration: the current generation is shown and an
// administrator's bump moves it by one (every rights cache then computes
// anew); a rights change made through the app moves it too.
func TestBackofficeRightsGeneration(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		gen := func() int64 {
			t.Helper()
			r := ta.Do("GET", "/backoffice/rights-generation", ta.Token(admin), nil)
			if r.Status != 200 {
				t.Fatalf("rights generation: %d %s", r.Status, r.Body)
			}
			var g struct{ Generation int64 }
			r.JSON(t, &g)
			return g.Generation
		}
		before := gen()
		r := ta.Do("POST", "/backoffice/rights-generation/bump", ta.Token(admin), nil)
		var g struct{ Generation int64 }
		if r.JSON(t, &g); r.Status != 200 || g.Generation != before+1 || gen() != before+1 {
			t.Errorf("bump: %d %s, before %d", r.Status, r.Body, before)
		}
		for _, user := range []string{teamLead, lead} {
			if r := ta.Do("POST", "/backoffice/rights-generation/bump", ta.Token(user), nil); r.Status != 403 {
				t.Errorf("%s bumps: %d", user, r.Status)
			}
			if r := ta.Do("GET", "/backoffice/rights-generation", ta.Token(user), nil); r.Status != 403 {
				t.Errorf("%s reads: %d", user, r.Status)
			}
		}
		if gen() != before+1 {
			t.Error("a refused bump moved the generation")
		}
	})
}

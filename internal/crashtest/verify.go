package crashtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"portfolio/internal/db"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// tagRec is a tag a writer created: its name as last acknowledged and the
// name of an update in doubt.
type tagRec struct {
	name, pending string
	id, version   int64
	acked         bool
}

// ticketRec is a ticket a writer created and perhaps moved.
type ticketRec struct {
	name                string
	id, version, column int64
	acked, movePending  bool
}

// docRec is an uploaded document.
type docRec struct {
	name  string
	size  int64
	acked bool
}

// importRec is a spreadsheet import of importRows points of sale.
type importRec struct {
	name              string
	committing, acked bool
}

// model is everything the writers sent and what the server answered.
type model struct {
	mu                   sync.Mutex
	sent, acked, unacked int
	names                map[string]*tagRec
	tags                 []*tagRec
	tickets              map[string]*ticketRec
	docs                 map[string]*docRec
	imports              map[string]*importRec
	lost                 []string
}

func newModel() *model {
	return &model{names: map[string]*tagRec{}, tickets: map[string]*ticketRec{}, docs: map[string]*docRec{}, imports: map[string]*importRec{}}
}

func (m *model) addTag(r *tagRec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.names[r.name] = r
	m.tags = append(m.tags, r)
}

func (m *model) addTicket(r *ticketRec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tickets[r.name] = r
}

func (m *model) addDoc(r *docRec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs[r.name] = r
}

func (m *model) addImport(r *importRec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.imports[r.name] = r
}

// fixtures are seeded rows the writers refer to.
type fixtures struct {
	pos, board, firstColumn, secondColumn, documentType int64
	companyName, contactName                            string
}

func loadFixtures(ctx context.Context, d *db.DB) (*fixtures, error) {
	fx := &fixtures{board: 1}
	err := d.QueryRowContext(ctx, `SELECT MIN(p.pos_id) FROM pos p`).Scan(&fx.pos)
	if err == nil {
		// The demo board Facility Management starts with the columns
		// "Neu" and "In Bearbeitung" (internal/seed/demo_tickets.go).
		err = d.QueryRowContext(ctx, `SELECT MIN(columnx_id), MAX(columnx_id) FROM columnx WHERE columnx_id IN (1, 2)`).
			Scan(&fx.firstColumn, &fx.secondColumn)
	}
	if err == nil {
		err = d.QueryRowContext(ctx, `SELECT MIN(documenttype_id) FROM documenttype`).Scan(&fx.documentType)
	}
	if err == nil {
		err = d.QueryRowContext(ctx, `SELECT c.company_name, p.contactperson_firstname || ' ' || p.contactperson_lastname
			FROM company c JOIN contactperson p ON p.company_id = c.company_id
			WHERE c.company_name = 'Nordhandel Retail GmbH' ORDER BY p.contactperson_id LIMIT 1`).Scan(&fx.companyName, &fx.contactName)
	}
	if err != nil {
		return nil, fmt.Errorf("crashtest: seeded rows: %w", err)
	}
	return fx, nil
}

// history counts a record's history rows by type.
func history(ctx context.Context, d *db.DB, category string, id int64) (map[string]int64, error) {
	rows, err := d.QueryContext(ctx, `SELECT trackrecord_type, COUNT(*) FROM trackrecord WHERE trackrecord_category = ? AND trackrecord_row_id = ?
		GROUP BY trackrecord_type`, category, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var t string
		var n int64
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		out[t] = n
	}
	return out, rows.Err()
}

// verify opens the database while the server is down and checks it and the
// document files against the model.
func (r *runner) verify(ctx context.Context) ([]string, error) {
	d, err := db.Open(ctx, r.dbURL, r.dataDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	m := r.model
	m.mu.Lock()
	defer m.mu.Unlock()
	lost := append([]string{}, m.lost...)
	m.lost = nil
	bad := func(format string, args ...any) { lost = append(lost, fmt.Sprintf(format, args...)) }

	// Tags: every acknowledged create and update is there, nothing unknown
	// is, history matches each row.
	type row struct {
		id, version int64
		name        string
	}
	scan := func(q string) ([]row, error) {
		rows, err := d.QueryContext(ctx, q, namePrefix+"%")
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []row
		for rows.Next() {
			var x row
			if err := rows.Scan(&x.id, &x.name, &x.version); err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, rows.Err()
	}
	tags, err := scan(`SELECT tag_id, tag_name, row_version FROM tag WHERE tag_name LIKE ?`)
	if err != nil {
		return nil, err
	}
	tagByID := map[int64]row{}
	for _, t := range tags {
		tagByID[t.id] = t
		rec := m.names[t.name]
		if rec == nil {
			bad("tag %d %q: written, never sent", t.id, t.name)
			continue
		}
		if rec.acked && rec.id != t.id {
			bad("tag %d %q: the name of tag %d", t.id, t.name, rec.id)
		}
		h, err := history(ctx, d, "tag", t.id)
		if err != nil {
			return nil, err
		}
		if h["create"] != 1 || h["update"] != t.version-1 {
			bad("tag %d: row_version %d with history %v", t.id, t.version, h)
		}
	}
	for _, rec := range m.tags {
		if !rec.acked {
			continue
		}
		t, ok := tagByID[rec.id]
		switch {
		case !ok:
			bad("tag %d %q: acknowledged, missing", rec.id, rec.name)
		case t.name == rec.name && t.version != rec.version:
			bad("tag %d: row_version %d, acknowledged %d", rec.id, t.version, rec.version)
		case t.name != rec.name && (t.name != rec.pending || t.version != rec.version+1):
			bad("tag %d: %q version %d, acknowledged %q version %d (in doubt: %q)", rec.id, t.name, t.version, rec.name, rec.version, rec.pending)
		}
	}

	// Tickets: created and moved as acknowledged; a move in doubt either
	// happened or not, and history says the same as the row.
	rows, err := d.QueryContext(ctx, `SELECT ticket_id, ticket_name, row_version, columnx_id FROM ticket WHERE ticket_name LIKE ?`, namePrefix+"%")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	type ticketRow struct {
		id, version, column int64
		name                string
	}
	var tickets []ticketRow
	for rows.Next() {
		var t ticketRow
		if err := rows.Scan(&t.id, &t.name, &t.version, &t.column); err != nil {
			rows.Close()
			return nil, err
		}
		tickets = append(tickets, t)
	}
	rows.Close()
	for _, t := range tickets {
		seen[t.name] = true
		rec := m.tickets[t.name]
		if rec == nil {
			bad("ticket %d %q: written, never sent", t.id, t.name)
			continue
		}
		moved := t.column == r.fx.secondColumn
		h, err := history(ctx, d, "ticket", t.id)
		if err != nil {
			return nil, err
		}
		wantMoves := int64(0)
		if moved {
			wantMoves = 1
		}
		if h["create"] != 1 || h["update"] != t.version-1 || h["move"] != wantMoves {
			bad("ticket %d: row_version %d, column %d, history %v", t.id, t.version, t.column, h)
		}
		if rec.acked {
			switch {
			case rec.id != t.id:
				bad("ticket %q: id %d, acknowledged %d", t.name, t.id, rec.id)
			case t.column == rec.column && t.version != rec.version:
				bad("ticket %d: row_version %d, acknowledged %d", t.id, t.version, rec.version)
			case t.column != rec.column && !rec.movePending:
				bad("ticket %d: column %d, acknowledged %d", t.id, t.column, rec.column)
			}
		}
	}
	for name, rec := range m.tickets {
		if rec.acked && !seen[name] {
			bad("ticket %d %q: acknowledged, missing", rec.id, name)
		}
	}

	// Documents: each row's file is there with its size, every
	// acknowledged upload has its row.
	rows, err = d.QueryContext(ctx, `SELECT document_id, document_name, document_file, document_size FROM document`)
	if err != nil {
		return nil, err
	}
	type docRow struct {
		id, size   int64
		name, file string
	}
	var docs []docRow
	for rows.Next() {
		var x docRow
		if err := rows.Scan(&x.id, &x.name, &x.file, &x.size); err != nil {
			rows.Close()
			return nil, err
		}
		docs = append(docs, x)
	}
	rows.Close()
	seen = map[string]bool{}
	for _, x := range docs {
		seen[x.name] = true
		if isOurs(x.name) && m.docs[x.name] == nil {
			bad("document %d %q: written, never sent", x.id, x.name)
		}
		if len(x.file) < 2 {
			bad("document %d: file key %q", x.id, x.file)
			continue
		}
		fi, err := os.Stat(filepath.Join(r.dataDir, "documents", x.file[:2], x.file))
		if err != nil || fi.Size() != x.size {
			bad("document %d: file %s: %v (size %d)", x.id, x.file, err, x.size)
		}
		h, err := history(ctx, d, "document", x.id)
		if err != nil {
			return nil, err
		}
		if h["create"] != 1 {
			bad("document %d: history %v", x.id, h)
		}
	}
	for name, rec := range m.docs {
		if rec.acked && !seen[name] {
			bad("document %q: acknowledged, missing", name)
		}
	}

	// Imports: all rows or none, all when the commit was acknowledged.
	counts := map[string]int{}
	rows, err = d.QueryContext(ctx, `SELECT pos_id, pos_name FROM pos WHERE pos_name LIKE ?`, namePrefix+"imp-%")
	if err != nil {
		return nil, err
	}
	type posRow struct {
		id   int64
		name string
	}
	var pos []posRow
	for rows.Next() {
		var x posRow
		if err := rows.Scan(&x.id, &x.name); err != nil {
			rows.Close()
			return nil, err
		}
		pos = append(pos, x)
	}
	rows.Close()
	for _, x := range pos {
		imp := x.name[:strings.LastIndex(x.name, "-")]
		counts[imp]++
		h, err := history(ctx, d, "pos", x.id)
		if err != nil {
			return nil, err
		}
		if h["create"] != 1 {
			bad("imported point of sale %d: history %v", x.id, h)
		}
	}
	for imp, n := range counts {
		if m.imports[imp] == nil {
			bad("import %q: %d rows written, never sent", imp, n)
		}
	}
	for name, rec := range m.imports {
		n := counts[name]
		switch {
		case rec.acked && n != importRows:
			bad("import %q: acknowledged, %d of %d rows", name, n, importRows)
		case !rec.acked && n != 0 && n != importRows:
			bad("import %q: half there, %d of %d rows", name, n, importRows)
		case !rec.committing && n != 0:
			bad("import %q: %d rows without a commit", name, n)
		}
	}
	sort.Strings(lost)
	return lost, nil
}

// sweep counts the stored files no row names, ages every file past the
// sweep's minimum age, runs the daily document_sweep job and checks that it
// removed exactly the unnamed files.
func (r *runner) sweep(ctx context.Context) (int, []string, error) {
	d, err := db.Open(ctx, r.dbURL, r.dataDir)
	if err != nil {
		return 0, nil, err
	}
	named := map[string]bool{}
	rows, err := d.QueryContext(ctx, `SELECT document_file FROM document`)
	if err != nil {
		d.Close()
		return 0, nil, err
	}
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			rows.Close()
			d.Close()
			return 0, nil, err
		}
		named[f] = true
	}
	rows.Close()
	d.Close()
	dir := filepath.Join(r.dataDir, "documents")
	list := func() (map[string]bool, error) {
		out := map[string]bool{}
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			out[e.Name()] = true
			return nil
		})
		return out, err
	}
	files, err := list()
	if err != nil {
		return 0, nil, err
	}
	var lost []string
	orphans := 0
	old := time.Now().Add(-48 * time.Hour)
	for f := range files {
		if !named[f] {
			orphans++
		}
		if err := os.Chtimes(filepath.Join(dir, f[:min(2, len(f))], f), old, old); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, nil, err
		}
	}
	// Temporary files live in tmp/.
	_ = filepath.WalkDir(filepath.Join(dir, "tmp"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			_ = os.Chtimes(path, old, old)
		}
		return nil
	})
	if orphans > r.model.unacked {
		lost = append(lost, fmt.Sprintf("%d document files named by no row, more than the %d writes in doubt", orphans, r.model.unacked))
	}
	if err := r.command(ctx, "jobs", "run", "document_sweep").Run(); err != nil {
		return orphans, nil, fmt.Errorf("crashtest: jobs run document_sweep: %w (log: %s)", err, r.logFile.Name())
	}
	after, err := list()
	if err != nil {
		return orphans, nil, err
	}
	for f := range after {
		if !named[f] {
			lost = append(lost, fmt.Sprintf("document file %s: named by no row, left by the sweep", f))
		}
	}
	for f := range named {
		if !after[f] {
			lost = append(lost, fmt.Sprintf("document file %s: named by a row, removed by the sweep", f))
		}
	}
	return orphans, lost, nil
}

// checkThroughAPI reads one acknowledged tag back through the API of the
// restarted server.
func (m *model) checkThroughAPI(ctx context.Context, c *client) string {
	m.mu.Lock()
	var rec *tagRec
	for _, t := range m.tags {
		if t.acked && t.pending == "" {
			rec = t
		}
	}
	m.mu.Unlock()
	if rec == nil {
		return "no acknowledged tag to read back"
	}
	var out struct {
		Data struct {
			Name string `json:"tag_name"`
		} `json:"data"`
	}
	status, body, err := c.json(ctx, "POST", "/api/?tag", map[string]any{"action": "read", "entity": "tag", "id": rec.id}, &out)
	if err != nil || status != 200 || out.Data.Name != rec.name {
		return fmt.Sprintf("tag %d read back through the API: %d %v %.200s, want %q", rec.id, status, err, body, rec.name)
	}
	return ""
}

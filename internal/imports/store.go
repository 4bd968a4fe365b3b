package imports

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
)

// chunkSize is the number of rows one data_import_chunk row holds.
const chunkSize = 1000

// Import is one upload as listed and read back.
type Import struct {
	ID        int64  `json:"import_id"`
	UserID    int64  `json:"user_id"`
	UserEmail string `json:"user_email"`
	Entity    string `json:"entity"`
	// ParentID is the record the rows are imported into (Parents), fixed
	// at upload; 0 for an entity without a parent.
	ParentID  int64             `json:"parent_id,omitempty"`
	FileName  string            `json:"file_name"`
	State     string            `json:"state"`
	Columns   []string          `json:"columns"`
	Mapping   map[string]string `json:"mapping"`
	Rows      int               `json:"rows"`
	Valid     int               `json:"valid"`
	Errors    int               `json:"error_count"`
	Created   int               `json:"created"`
	CreatedAt time.Time         `json:"created_at"`
	Validated *time.Time        `json:"validated_at"`
	Committed *time.Time        `json:"committed_at"`
	Undone    *time.Time        `json:"undone_at"`
	// Report holds the row errors of the last validation or commit.
	Report []RowError `json:"report,omitempty"`
	// Progress is set while a commit runs: rows done of rows.
	Progress *Progress `json:"progress,omitempty"`
	// CommitError says why the last commit job failed for good (the
	// import is valid again); "" otherwise.
	CommitError string `json:"commit_error,omitempty"`
	// done is the stored count of rows a running commit wrote (PostgreSQL).
	done int
	// lang is the language the commit job reports in.
	lang string
	// jobID is the queue's run committing the import (0: none recorded),
	// committingAt when the import moved to committing (RecoverLost).
	jobID        int64
	committingAt time.Time
}

// Progress counts the rows a running commit has written.
type Progress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// RowError is one refused value of one row: the row's line in the file
// (the heading is line 1), where (["rows", line, field]), the column it
// came from and the translated message.
type RowError struct {
	Row    int    `json:"row"`
	Loc    []any  `json:"loc"`
	Column string `json:"column,omitempty"`
	Msg    string `json:"msg"`
	Type   string `json:"type,omitempty"`
}

// States of an import.
const (
	stateUploaded = "uploaded"
	stateValid    = "valid"
	// stateCommitting: the commit is enqueued as a job or running.
	stateCommitting = "committing"
	stateInvalid    = "invalid"
	stateCommitted  = "committed"
	stateUndone     = "undone"
)

// maxReport bounds the row errors kept and answered.
const maxReport = 1000

// insertImport stores a new upload with its rows in chunks.
func insertImport(ctx context.Context, tx *db.Tx, userID int64, entity string, parentID int64, fileName string, sh *Sheet, now time.Time) (int64, error) {
	cols, err := json.Marshal(sh.Headings)
	if err != nil {
		return 0, fmt.Errorf("imports: encode headings: %w", err)
	}
	var id int64
	var parent sql.NullInt64
	if parentID > 0 {
		parent = sql.NullInt64{Int64: parentID, Valid: true}
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO data_import (user_id, import_entity, import_parent_id, import_file_name, import_state, import_columns,
		import_row_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING import_id`,
		userID, entity, parent, fileName, stateUploaded, string(cols), len(sh.Rows), now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("imports: store the import: %w", err)
	}
	var b strings.Builder
	for start := 0; start < len(sh.Rows); start += chunkSize {
		b.Reset()
		for i := start; i < min(start+chunkSize, len(sh.Rows)); i++ {
			line, err := json.Marshal(struct {
				L int      `json:"l"`
				C []string `json:"c"`
			}{sh.Lines[i], sh.Rows[i]})
			if err != nil {
				return 0, fmt.Errorf("imports: encode a row: %w", err)
			}
			b.Write(line)
			b.WriteByte('\n')
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO data_import_chunk (import_id, chunk_no, chunk_rows) VALUES (?, ?, ?)`,
			id, start/chunkSize, b.String()); err != nil {
			return 0, fmt.Errorf("imports: store rows: %w", err)
		}
	}
	return id, nil
}

// storedRow is one row of an upload: its line in the file and its cells.
type storedRow struct {
	Line  int      `json:"l"`
	Cells []string `json:"c"`
}

// eachChunk calls fn with the rows of every chunk of import id, in order.
func eachChunk(ctx context.Context, q db.Querier, id int64, fn func(no int, rows []storedRow, created []int64) error) error {
	rows, err := q.QueryContext(ctx, `SELECT chunk_no, chunk_rows, created_ids FROM data_import_chunk WHERE import_id = ? ORDER BY chunk_no`, id)
	if err != nil {
		return fmt.Errorf("imports: read rows: %w", err)
	}
	type chunk struct {
		no      int
		text    string
		created sql.NullString
	}
	var chunks []chunk
	for rows.Next() {
		var c chunk
		if err := rows.Scan(&c.no, &c.text, &c.created); err != nil {
			rows.Close()
			return fmt.Errorf("imports: read rows: %w", err)
		}
		chunks = append(chunks, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("imports: read rows: %w", err)
	}
	for _, c := range chunks {
		var out []storedRow
		sc := bufio.NewScanner(strings.NewReader(c.text))
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			var r storedRow
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				return fmt.Errorf("imports: decode a row: %w", err)
			}
			out = append(out, r)
		}
		var created []int64
		if c.created.Valid {
			if err := json.Unmarshal([]byte(c.created.String), &created); err != nil {
				return fmt.Errorf("imports: decode created keys: %w", err)
			}
		}
		if err := fn(c.no, out, created); err != nil {
			return err
		}
	}
	return nil
}

const importColumns = `i.import_id, i.user_id, u.user_email, i.import_entity, i.import_parent_id, i.import_file_name, i.import_state, i.import_columns,
	i.import_mapping, i.import_row_count, i.import_valid_count, i.import_error_count, i.import_created_count, i.import_report,
	i.created_at, i.validated_at, i.committed_at, i.undone_at, i.import_done_count, i.import_lang, i.import_commit_error,
	i.import_job_id, i.import_committing_at`

func scanImport(sc interface{ Scan(...any) error }, withReport bool) (*Import, error) {
	var im Import
	var cols string
	var mapping, report, lang, commitErr sql.NullString
	var validated, committed, undone, committing sql.NullTime
	var parent, job sql.NullInt64
	if err := sc.Scan(&im.ID, &im.UserID, &im.UserEmail, &im.Entity, &parent, &im.FileName, &im.State, &cols, &mapping, &im.Rows,
		&im.Valid, &im.Errors, &im.Created, &report, &im.CreatedAt, &validated, &committed, &undone, &im.done, &lang, &commitErr,
		&job, &committing); err != nil {
		return nil, err
	}
	im.ParentID, im.jobID, im.committingAt = parent.Int64, job.Int64, committing.Time.UTC()
	im.lang, im.CommitError = lang.String, commitErr.String
	if err := json.Unmarshal([]byte(cols), &im.Columns); err != nil {
		return nil, fmt.Errorf("imports: decode headings: %w", err)
	}
	if mapping.Valid {
		if err := json.Unmarshal([]byte(mapping.String), &im.Mapping); err != nil {
			return nil, fmt.Errorf("imports: decode mapping: %w", err)
		}
	}
	if report.Valid && withReport {
		if err := json.Unmarshal([]byte(report.String), &im.Report); err != nil {
			return nil, fmt.Errorf("imports: decode report: %w", err)
		}
	}
	for _, p := range []struct {
		src sql.NullTime
		dst **time.Time
	}{{validated, &im.Validated}, {committed, &im.Committed}, {undone, &im.Undone}} {
		if p.src.Valid {
			t := p.src.Time.UTC()
			*p.dst = &t
		}
	}
	im.CreatedAt = im.CreatedAt.UTC()
	return &im, nil
}

// loadImport reads import id of user userID (another user's answers 404).
func loadImport(ctx context.Context, q db.Querier, id, userID int64) (*Import, error) {
	row := q.QueryRowContext(ctx, `SELECT `+importColumns+` FROM data_import i JOIN users u ON u.user_id = i.user_id
		WHERE i.import_id = ? AND i.user_id = ?`, id, userID)
	im, err := scanImport(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("imports: read import %d: %w", id, err)
	}
	return im, nil
}

// loadAnyImport reads import id whoever uploaded it (the commit job).
func loadAnyImport(ctx context.Context, q db.Querier, id int64) (*Import, error) {
	row := q.QueryRowContext(ctx, `SELECT `+importColumns+` FROM data_import i JOIN users u ON u.user_id = i.user_id
		WHERE i.import_id = ?`, id)
	im, err := scanImport(row, true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("imports: read import %d: %w", id, err)
	}
	return im, nil
}

// listImports reads the imports of user userID, newest first.
func listImports(ctx context.Context, q db.Querier, userID int64, limit int) ([]Import, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+importColumns+` FROM data_import i JOIN users u ON u.user_id = i.user_id
		WHERE i.user_id = ? ORDER BY i.import_id DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("imports: list: %w", err)
	}
	defer rows.Close()
	out := []Import{}
	for rows.Next() {
		im, err := scanImport(rows, false)
		if err != nil {
			return nil, fmt.Errorf("imports: list: %w", err)
		}
		out = append(out, *im)
	}
	return out, rows.Err()
}

// saveResult stores the outcome of a validation or commit.
func saveResult(ctx context.Context, q db.Querier, id int64, state string, mapping map[string]string, valid, errs int, report []RowError, at time.Time) error {
	m, err := json.Marshal(mapping)
	if err != nil {
		return fmt.Errorf("imports: encode mapping: %w", err)
	}
	if report == nil {
		report = []RowError{}
	}
	r, err := json.Marshal(report)
	if err != nil {
		return fmt.Errorf("imports: encode report: %w", err)
	}
	_, err = q.ExecContext(ctx, `UPDATE data_import SET import_state = ?, import_mapping = ?, import_valid_count = ?,
		import_error_count = ?, import_report = ?, validated_at = ? WHERE import_id = ?`,
		state, string(m), valid, errs, string(r), at, id)
	if err != nil {
		return fmt.Errorf("imports: store the result: %w", err)
	}
	return nil
}

// remember stores mapping as the user's mapping for entity.
func remember(ctx context.Context, q db.Querier, userID int64, entity string, mapping map[string]string, at time.Time) error {
	m, err := json.Marshal(mapping)
	if err != nil {
		return fmt.Errorf("imports: encode mapping: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO import_mapping (user_id, import_entity, import_mapping, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, import_entity) DO UPDATE SET import_mapping = excluded.import_mapping, updated_at = excluded.updated_at`,
		userID, entity, string(m), at)
	if err != nil {
		return fmt.Errorf("imports: remember the mapping: %w", err)
	}
	return nil
}

// remembered reads the user's mapping for entity (nil when none).
func remembered(ctx context.Context, q db.Querier, userID int64, entity string) (map[string]string, error) {
	var m string
	err := q.QueryRowContext(ctx, `SELECT import_mapping FROM import_mapping WHERE user_id = ? AND import_entity = ?`, userID, entity).Scan(&m)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("imports: read the remembered mapping: %w", err)
	}
	out := map[string]string{}
	if err := json.Unmarshal([]byte(m), &out); err != nil {
		return nil, fmt.Errorf("imports: decode the remembered mapping: %w", err)
	}
	return out, nil
}

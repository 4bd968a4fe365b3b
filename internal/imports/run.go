package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/jobs"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
)

// ValidateAnswer is the answer of a validation: the rows that would be
// created and the row errors (at most maxReport; ErrorCount counts all).
type ValidateAnswer struct {
	Valid      int        `json:"valid"`
	Invalid    int        `json:"invalid"`
	ErrorCount int        `json:"error_count"`
	Errors     []RowError `json:"errors"`
}

// column is one mapped column: its position, heading and field, or the
// relation it links (LinkColumns; field is then a stand-in named by the
// relation's API name, referring to the entity it links).
type column struct {
	idx     int
	heading string
	field   *schema.Field
	rel     *schema.Relation
}

// plan is a checked mapping with the references of the rows resolved.
type plan struct {
	ent  *schema.Entity
	cols []column
	// refs holds per reference field the keys each cell text names.
	refs map[string]map[string][]int64
	// external holds, per cell text of a cost type column that names no
	// cost type, the external cost type it names (matched by its label)
	// when that is mapped to exactly one cost type.
	external map[string]int64
	// parentField is filled with parent in every row (Parents).
	parentField string
	parent      int64
	lang        string
	s           *Service
}

// Fields a position import fills from a cost type column that names an
// external cost type (decision 0024).
const (
	costTypeEntity     = "costtype"
	externalCostEntity = "externalcosttype"
	externalCostField  = "externalcosttype_id"
)

// errRollback ends a transaction that must write nothing.
var errRollback = errors.New("imports: roll back")

// checkMapping checks that every heading of mapping is a column of im and
// every field one the caller may fill on create (422 naming the heading).
func (s *Service) checkMapping(ctx context.Context, im *Import, mapping map[string]string) (*plan, error) {
	ent, err := s.importable(im.Entity)
	if err != nil {
		return nil, err
	}
	pl := &plan{ent: ent, refs: map[string]map[string][]int64{}, external: map[string]int64{}, lang: i18n.LangFrom(ctx), s: s,
		parentField: Parents[ent.Name], parent: im.ParentID}
	if pl.parentField != "" && pl.parent <= 0 {
		return nil, apperr.Validation(apperr.FieldError{Field: "parent_id", Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": "parent_id"}})
	}
	var errs []apperr.FieldError
	used := map[string]string{}
	for _, h := range slices.Sorted(maps.Keys(mapping)) {
		field := mapping[h]
		loc := []any{"body", "mapping", h}
		idx := slices.Index(im.Columns, h)
		if idx < 0 || h == "" {
			errs = append(errs, apperr.FieldError{Field: "mapping", Loc: loc, Key: "server.imports.unknown_column", Type: "value_error",
				Args: map[string]string{"field": h, "column": h}})
			continue
		}
		if field == "" {
			continue
		}
		f, rel, err := s.mappedTo(ctx, ent, field)
		if err != nil {
			return nil, err
		}
		if f == nil {
			errs = append(errs, apperr.FieldError{Field: "mapping", Loc: loc, Key: "server.imports.not_writable", Type: "not_writable",
				Args: map[string]string{"field": field, "column": h}})
			continue
		}
		if other, dup := used[field]; dup {
			errs = append(errs, apperr.FieldError{Field: "mapping", Loc: loc, Key: "server.imports.mapped_twice", Type: "value_error",
				Args: map[string]string{"field": field, "column": h, "other": other}})
			continue
		}
		used[field] = h
		pl.cols = append(pl.cols, column{idx: idx, heading: h, field: f, rel: rel})
	}
	if len(errs) > 0 {
		return nil, apperr.Validation(errs...)
	}
	if len(pl.cols) == 0 {
		return nil, apperr.Validation(apperr.FieldError{Field: "mapping", Key: "server.imports.no_mapping", Type: "missing",
			Args: map[string]string{"field": "mapping"}})
	}
	slices.SortFunc(pl.cols, func(a, b column) int { return a.idx - b.idx })
	return pl, nil
}

// mappedTo resolves what a column mapped to target fills: a field an
// import fills, or a relation it links that the caller may link (with a
// stand-in field referring to the linked entity); nil when the caller may
// fill neither.
func (s *Service) mappedTo(ctx context.Context, ent *schema.Entity, target string) (*schema.Field, *schema.Relation, error) {
	if f, ok := ent.Field(target); ok {
		if importField(ent, f) {
			return f, nil, nil
		}
		return nil, nil, nil
	}
	rel := importLink(ent, target)
	if rel == nil {
		return nil, nil, nil
	}
	err := s.engine.RequireLink(ctx, target)
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return &schema.Field{Name: target, Ref: rel.Target}, rel, nil
}

// resolve looks up, within the caller's tenant, the rows the reference
// columns name by label, once per distinct text.
func (pl *plan) resolve(ctx context.Context, q db.Querier, im *Import) error {
	texts := map[string]map[string]bool{}
	for _, c := range pl.cols {
		if c.field.Ref != "" {
			texts[c.field.Name] = map[string]bool{}
		}
	}
	if len(texts) == 0 {
		return nil
	}
	err := eachChunk(ctx, q, im.ID, func(_ int, rows []storedRow, _ []int64) error {
		for _, r := range rows {
			for _, c := range pl.cols {
				if c.field.Ref == "" || c.idx >= len(r.Cells) {
					continue
				}
				if v := strings.TrimSpace(r.Cells[c.idx]); v != "" {
					texts[c.field.Name][v] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range pl.cols {
		if c.field.Ref == "" {
			continue
		}
		values := slices.Sorted(maps.Keys(texts[c.field.Name]))
		found, err := pl.s.engine.ResolveLabels(ctx, q, c.field.Ref, alsoKeys(c.field.Ref), values)
		if err != nil {
			return err
		}
		pl.refs[c.field.Name] = found
		if c.field.Ref == costTypeEntity {
			if err := pl.resolveExternal(ctx, q, values, found); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveExternal matches the texts of a cost type column that name no
// cost type against the external cost types (as landlords name them on
// their statements): a text naming exactly one external cost type that is
// mapped to exactly one cost type names that cost type (and, when no
// column fills the row's external cost type, that external cost type).
func (pl *plan) resolveExternal(ctx context.Context, q db.Querier, values []string, found map[string][]int64) error {
	if f, ok := pl.ent.Field(externalCostField); !ok || f.Ref != externalCostEntity {
		return nil
	}
	var rest []string
	for _, v := range values {
		if len(found[v]) == 0 {
			rest = append(rest, v)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	ext, err := pl.s.engine.ResolveLabels(ctx, q, externalCostEntity, nil, rest)
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil // a caller who may not read them names cost types only
	}
	if err != nil {
		return err
	}
	for _, v := range rest {
		if len(ext[v]) != 1 {
			continue
		}
		cur, err := pl.s.engine.ListIn(ctx, q, tables.ListQuery{Entity: externalCostEntity + "_" + costTypeEntity + "_rel",
			Data: map[string]any{externalCostField: ext[v][0]}, PerPage: 2})
		if apperr.IsKind(err, apperr.KindForbidden) {
			return nil
		}
		if err != nil {
			return err
		}
		var costTypes []int64
		for cur.Next() {
			if id, ok := cur.Record()["costtype_id"].(int64); ok {
				costTypes = append(costTypes, id)
			}
		}
		err = cur.Err()
		cur.Close()
		if err != nil {
			return err
		}
		if len(costTypes) == 1 {
			found[v] = costTypes
			pl.external[v] = ext[v][0]
		}
	}
	return nil
}

// data turns a stored row into the values of a create and the records
// its new record is to be linked to (by relation API name), or the row's
// errors (references unknown or ambiguous).
func (pl *plan) data(r storedRow) (map[string]any, map[string]int64, []RowError) {
	data := map[string]any{}
	var links map[string]int64
	if pl.parentField != "" {
		data[pl.parentField] = pl.parent
	}
	// derived is the external cost type a cost type cell named; it fills
	// the row's external cost type when no cell of the row does.
	var derived int64
	defer func() {
		if _, set := data[externalCostField]; !set && derived > 0 {
			data[externalCostField] = derived
		}
	}()
	var errs []RowError
	for _, c := range pl.cols {
		if c.idx >= len(r.Cells) {
			continue
		}
		cell := r.Cells[c.idx]
		if strings.TrimSpace(cell) == "" {
			continue
		}
		if c.field.Ref == "" {
			data[c.field.Name] = cellValue(c.field, cell)
			continue
		}
		text := strings.TrimSpace(cell)
		ids := pl.refs[c.field.Name][text]
		switch {
		case len(ids) == 1 && c.rel != nil:
			if links == nil {
				links = map[string]int64{}
			}
			links[c.field.Name] = ids[0]
		case len(ids) == 1:
			data[c.field.Name] = ids[0]
			if ext, ok := pl.external[text]; ok && c.field.Ref == costTypeEntity {
				derived = ext
			}
		case len(ids) > 1:
			errs = append(errs, pl.rowError(r.Line, c, "server.imports.ambiguous_reference", "ambiguous_reference", map[string]string{"value": text, "count": strconv.Itoa(len(ids))}))
		default:
			if n, err := strconv.ParseInt(text, 10, 64); err == nil && n > 0 && c.rel == nil {
				data[c.field.Name] = n // a key; the engine checks it is the caller's
				continue
			}
			errs = append(errs, pl.rowError(r.Line, c, "server.imports.unknown_reference", "unknown_reference", map[string]string{"value": text}))
		}
	}
	return data, links, errs
}

func (pl *plan) rowError(line int, c column, key, typ string, args map[string]string) RowError {
	a := map[string]string{"column": c.heading}
	for k, v := range args {
		a[k] = v
	}
	return RowError{Row: line, Loc: []any{"rows", line, c.field.Name}, Column: c.heading, Type: typ, Msg: pl.s.catalog.T(pl.lang, key, a)}
}

// rowErrors turns the engine's refusal of row line into row errors; an
// error that is no validation is returned as it is.
func (pl *plan) rowErrors(line int, err error) ([]RowError, error) {
	ae, ok := apperr.As(err)
	if !ok || ae.Kind != apperr.KindValidation || len(ae.Fields) == 0 {
		return nil, err
	}
	out := make([]RowError, 0, len(ae.Fields))
	for _, f := range ae.Fields {
		heading := ""
		for _, c := range pl.cols {
			if c.field.Name == f.Field {
				heading = c.heading
			}
		}
		out = append(out, RowError{Row: line, Loc: []any{"rows", line, f.Field}, Column: heading, Type: f.Type, Msg: pl.s.fieldMessage(pl.lang, f)})
	}
	return out, nil
}

// fieldMessage renders a field error in lang as the HTTP layer does.
func (s *Service) fieldMessage(lang string, f apperr.FieldError) string {
	if f.Message != "" {
		return f.Message
	}
	args := map[string]string{}
	for k, v := range f.Args {
		args[k] = v
	}
	if _, ok := args["field"]; !ok {
		args["field"] = f.Field
	}
	return s.catalog.T(lang, f.Key, args)
}

// open refuses an import that was committed or undone already.
func open(im *Import) error {
	if im.State == stateCommitted || im.State == stateUndone {
		return apperr.Conflict("server.imports.finished").WithCode("finished")
	}
	return nil
}

// Validate checks every row of im under mapping exactly as the generic
// create would (nothing is written but the result and the mapping, which
// the caller's next upload of the entity is offered).
func (s *Service) Validate(ctx context.Context, im *Import, mapping map[string]string) (*ValidateAnswer, error) {
	if err := open(im); err != nil {
		return nil, err
	}
	if err := s.running1(im); err != nil {
		return nil, err
	}
	pl, err := s.checkMapping(ctx, im, mapping)
	if err != nil {
		return nil, err
	}
	batch, err := s.engine.NewBatch(ctx, im.Entity)
	if err != nil {
		return nil, err
	}
	if err := pl.resolve(ctx, s.db, im); err != nil {
		return nil, err
	}
	ans := &ValidateAnswer{Errors: []RowError{}}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		err := eachChunk(ctx, tx, im.ID, func(_ int, rows []storedRow, _ []int64) error {
			for _, r := range rows {
				data, _, errs := pl.data(r)
				if errs == nil {
					cerr := batch.Check(ctx, tx, r.Line, data)
					if cerr != nil {
						if errs, err = pl.rowErrors(r.Line, cerr); err != nil {
							return err
						}
					}
				}
				if len(errs) == 0 {
					ans.Valid++
					continue
				}
				ans.Invalid++
				ans.ErrorCount += len(errs)
				for _, e := range errs {
					if len(ans.Errors) < maxReport {
						ans.Errors = append(ans.Errors, e)
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		return nil, err
	}
	state := stateValid
	if ans.Invalid > 0 {
		state = stateInvalid
	}
	now := s.now().UTC().Truncate(time.Second)
	used := map[string]string{}
	for _, c := range pl.cols {
		used[c.heading] = c.field.Name
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := saveResult(ctx, tx, im.ID, state, used, ans.Valid, ans.ErrorCount, ans.Errors, now); err != nil {
			return err
		}
		return remember(ctx, tx, im.UserID, im.Entity, used, now)
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
}

// running1 refuses to work on an import whose commit is under way.
func (s *Service) running1(im *Import) error {
	if im.State == stateCommitting || s.progressOf(im.ID) != nil {
		return apperr.Conflict("server.imports.running").WithCode("running")
	}
	return nil
}

// start marks the commit of import id as running in this instance (409
// when it is).
func (s *Service) start(id int64, total int) (*Progress, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.running[id]; ok {
		return nil, apperr.Conflict("server.imports.running").WithCode("running")
	}
	p := &Progress{Total: total}
	s.running[id] = p
	return p, nil
}

func (s *Service) stop(id int64) {
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
}

// advance records that a running commit has written done rows: in this
// instance's memory and, on PostgreSQL, in the import's row beside the
// commit's transaction, so that any instance answers the progress. (On
// SQLite the commit's transaction holds the one write lock until it ends;
// only the working instance knows the count.)
func (s *Service) advance(ctx context.Context, id int64, p *Progress, done int) {
	s.mu.Lock()
	p.Done = done
	s.mu.Unlock()
	if s.db.Dialect() != db.Postgres {
		return
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE data_import SET import_done_count = ? WHERE import_id = ?`, done, id); err != nil {
		s.log.Warn("import progress not stored", "import", id, "err", err)
	}
}

// readyToCommit refuses an import that is not validated without errors.
func readyToCommit(im *Import) error {
	if err := open(im); err != nil {
		return err
	}
	if im.State == stateCommitting {
		return apperr.Conflict("server.imports.running").WithCode("running")
	}
	if im.State != stateValid {
		return apperr.Validation(apperr.FieldError{Field: "import", Key: "server.imports.not_valid", Type: "value_error",
			Args: map[string]string{"field": "import", "errors": strconv.Itoa(im.Errors)}})
	}
	return nil
}

// CommitJob is the name of the job that commits a large import.
const CommitJob = "import_commit"

// CommitLater enqueues the commit of im as a job of the queue (any
// instance works it, with the rights and tenant of the user who uploaded
// the import, and a restart leaves it to be retried); GET /imports/{id}
// shows its progress and, when it ends, its state and report. Without a
// queue the commit runs at once.
func (s *Service) CommitLater(ctx context.Context, im *Import) error {
	if s.queue == nil {
		return s.Commit(ctx, im)
	}
	if err := readyToCommit(im); err != nil {
		return err
	}
	if err := s.running1(im); err != nil {
		return err
	}
	// The state moves from valid to committing once: a second request (of
	// any instance) finds nothing to move and answers 409.
	res, err := s.db.ExecContext(ctx, `UPDATE data_import SET import_state = ?, import_done_count = 0, import_lang = ?,
		import_commit_error = NULL, import_job_id = NULL, import_committing_at = ? WHERE import_id = ? AND import_state = ?`,
		stateCommitting, i18n.LangFrom(ctx), s.now().UTC().Truncate(time.Second), im.ID, stateValid)
	if err != nil {
		return fmt.Errorf("imports: mark committing: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return apperr.Conflict("server.imports.running").WithCode("running")
	}
	run, err := s.queue.EnqueueArg(ctx, CommitJob, strconv.FormatInt(im.ID, 10))
	if err != nil {
		if _, rerr := s.db.ExecContext(context.WithoutCancel(ctx), `UPDATE data_import SET import_state = ? WHERE import_id = ? AND import_state = ?`,
			stateValid, im.ID, stateCommitting); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return err
	}
	// The run is enqueued and will commit the import: a failure to note
	// its id must not answer an error. The run notes it itself when it
	// starts (recordRun); until then RecoverLost gives it lostAfter.
	if err := s.recordRun(ctx, im.ID, run); err != nil {
		s.log.Warn("import commit run not noted", "import", im.ID, "run", run, "err", err)
	}
	return nil
}

// recordRun notes run as the queue's run committing import id, while it
// is committing without one noted.
func (s *Service) recordRun(ctx context.Context, id, run int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE data_import SET import_job_id = ? WHERE import_id = ? AND import_state = ? AND import_job_id IS NULL`,
		run, id, stateCommitting)
	if err != nil {
		return fmt.Errorf("imports: note the commit run of import %d: %w", id, err)
	}
	return nil
}

// RunCommitJob works one run of the commit job: the import named by the
// run's argument is committed with the rights and tenant of the user who
// uploaded it, in one transaction, or not at all. A run that finds the
// import no longer committing (done by an earlier attempt, or deleted)
// does nothing. A row refused at commit time ends the job with the import
// invalid and its report; a failure of the database fails the attempt,
// which the queue retries from the start (nothing of it was written); when
// the last attempt fails, or the user may no longer act, the import is
// valid again with the reason in commit_error.
func (s *Service) RunCommitJob(ctx context.Context, run jobs.Run) error {
	id, err := strconv.ParseInt(run.Arg, 10, 64)
	if err != nil {
		return fmt.Errorf("imports: commit job: bad argument %q", run.Arg)
	}
	im, err := loadAnyImport(ctx, s.db, id)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if im.State != stateCommitting {
		return nil
	}
	if run.ID != 0 && im.jobID != 0 && im.jobID != run.ID {
		return nil // a run the import no longer waits for (it was found lost and committed anew)
	}
	if run.ID != 0 && im.jobID == 0 {
		if err := s.recordRun(ctx, im.ID, run.ID); err != nil {
			return err
		}
	}
	lang := im.lang
	if lang == "" {
		lang = "en"
	}
	ctx = i18n.WithLang(ctx, lang)
	if s.principals == nil {
		return errors.New("imports: commit job: no principals")
	}
	p, err := s.principals.PrincipalOf(ctx, im.UserID)
	if apperr.IsKind(err, apperr.KindNotFound) {
		err = apperr.Conflict("server.imports.uploader_gone").WithCode("uploader_gone").Wrap(err)
	}
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return s.commitFailed(ctx, im, lang, err)
		}
		return s.retryOrFail(ctx, im, lang, run, err)
	}
	ctx = auth.WithPrincipal(ctx, p)
	prog, err := s.start(im.ID, im.Rows)
	if err != nil {
		return err // another worker of this instance has it; this attempt fails and is retried
	}
	defer s.stop(im.ID)
	err = s.commit(ctx, im, prog)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errRowRefused):
		return nil // the import is invalid with its report
	}
	if _, ok := apperr.As(err); ok {
		return s.commitFailed(ctx, im, lang, err)
	}
	return s.retryOrFail(ctx, im, lang, run, err)
}

// retryOrFail fails the attempt (the queue retries it) unless it was the
// last, which leaves the import valid again with the reason.
func (s *Service) retryOrFail(ctx context.Context, im *Import, lang string, run jobs.Run, err error) error {
	if !run.Last() {
		return err
	}
	return errors.Join(err, s.commitFailed(ctx, im, lang, err))
}

// commitFailed ends a commit job for good: the import is valid again (to
// be committed anew), commit_error says why and failed_at when; the error
// dashboard lists it (again, when it was dismissed before: FailedImports).
func (s *Service) commitFailed(ctx context.Context, im *Import, lang string, cause error) error {
	msg := s.catalog.T(lang, "server.imports.commit_failed", nil)
	if ae, ok := apperr.As(cause); ok && ae.Kind != apperr.KindInternal {
		if ae.Message != "" {
			msg = ae.Message
		} else if ae.Key != "" {
			msg = s.catalog.T(lang, ae.Key, ae.Args)
		}
	}
	s.log.Warn("import commit job failed", "import", im.ID, "err", cause)
	_, err := s.db.ExecContext(context.WithoutCancel(ctx), `UPDATE data_import SET import_state = ?, import_commit_error = ?,
		import_failed_at = ?, import_failure_dismissed_at = NULL WHERE import_id = ? AND import_state = ?`,
		stateValid, msg, s.now().UTC().Truncate(time.Second), im.ID, stateCommitting)
	if err != nil {
		return fmt.Errorf("imports: mark the commit failed: %w", err)
	}
	return nil
}

// Commit creates every row of im in one transaction, or none: a row the
// engine refuses answers 422 naming the row, and nothing is written.
func (s *Service) Commit(ctx context.Context, im *Import) error {
	if err := readyToCommit(im); err != nil {
		return err
	}
	p, err := s.start(im.ID, im.Rows)
	if err != nil {
		return err
	}
	defer s.stop(im.ID)
	err = s.commit(ctx, im, p)
	if errors.Is(err, errRowRefused) {
		var re *refusedError
		errors.As(err, &re)
		return rowsRefused(re.report)
	}
	return err
}

// refusedError is a commit's refused row with its report.
type refusedError struct{ report []RowError }

func (e *refusedError) Error() string { return errRowRefused.Error() }
func (e *refusedError) Unwrap() error { return errRowRefused }

// commit writes the rows of im (valid, or committing as a job) in one
// transaction. It answers errRowRefused (as *refusedError) when the engine
// refused a row, after storing the import as invalid with the report.
func (s *Service) commit(ctx context.Context, im *Import, p *Progress) error {
	pl, err := s.checkMapping(ctx, im, im.Mapping)
	if err != nil {
		return err
	}
	note := fmt.Sprintf("import %d: %s", im.ID, im.FileName)
	batch, err := s.engine.NewBatch(ctx, im.Entity, tables.HistoryNote(note))
	if err != nil {
		return err
	}
	if err := pl.resolve(ctx, s.db, im); err != nil {
		return err
	}
	var report []RowError
	total := 0
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		err := eachChunk(ctx, tx, im.ID, func(no int, rows []storedRow, _ []int64) error {
			added := make([]rowLinks, 0, len(rows))
			for _, r := range rows {
				data, links, errs := pl.data(r)
				if errs != nil {
					report = errs
					return errRowRefused
				}
				if err := batch.Add(ctx, tx, r.Line, data); err != nil {
					if report, err = pl.rowErrors(r.Line, err); err != nil {
						return fmt.Errorf("imports: row %d: %w", r.Line, err)
					}
					return errRowRefused
				}
				added = append(added, rowLinks{line: r.Line, links: links})
			}
			ids, err := batch.Flush(ctx, tx)
			if err != nil {
				return err
			}
			if report, err = pl.link(tables.WithHistoryNote(ctx, note), tx, added, ids); err != nil {
				return err
			}
			b, err := json.Marshal(ids)
			if err != nil {
				return fmt.Errorf("imports: encode keys: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE data_import_chunk SET created_ids = ? WHERE import_id = ? AND chunk_no = ?`, string(b), im.ID, no); err != nil {
				return fmt.Errorf("imports: store keys: %w", err)
			}
			total += len(ids)
			s.advance(ctx, im.ID, p, total)
			if s.afterChunk != nil {
				if err := s.afterChunk(im.ID, total); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Only from valid (a request's commit) or committing (the job's):
		// a commit that lost the race to another writes nothing.
		res, err := tx.ExecContext(ctx, `UPDATE data_import SET import_state = ?, import_created_count = ?, committed_at = ?,
			import_done_count = ?, import_commit_error = NULL WHERE import_id = ? AND import_state IN (?, ?)`,
			stateCommitted, total, s.now().UTC().Truncate(time.Second), total, im.ID, stateValid, stateCommitting)
		if err != nil {
			return fmt.Errorf("imports: mark committed: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return apperr.Conflict("server.imports.finished").WithCode("finished")
		}
		return nil
	})
	if errors.Is(err, errRowRefused) {
		// Something changed since the validation: keep the report, write nothing else.
		if serr := saveResult(ctx, s.db, im.ID, stateInvalid, im.Mapping, 0, len(report), report, s.now().UTC().Truncate(time.Second)); serr != nil {
			return serr
		}
		return &refusedError{report: report}
	}
	if err != nil {
		return err
	}
	batch.Done()
	return nil
}

// rowLinks are the links of one added row (its line in the file).
type rowLinks struct {
	line  int
	links map[string]int64
}

// link links the records a chunk created (ids, in the order of added) to
// what their rows named, through the engine (LinkIn: the tab's right, the
// tenant, the link's checks and history). A link the engine refuses ends
// the commit with the row's report (errRowRefused).
func (pl *plan) link(ctx context.Context, tx *db.Tx, added []rowLinks, ids []int64) ([]RowError, error) {
	if len(ids) != len(added) {
		return nil, fmt.Errorf("imports: %d keys for %d rows", len(ids), len(added))
	}
	for i, a := range added {
		for _, c := range pl.cols {
			other, ok := a.links[c.field.Name]
			if !ok {
				continue
			}
			target, ok := pl.s.engine.Registry().Entity(c.rel.Target)
			if !ok {
				return nil, fmt.Errorf("imports: no entity %s", c.rel.Target)
			}
			_, err := pl.s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: c.field.Name, OwnerID: ids[i], Data: map[string]any{target.PK: other}})
			if err == nil {
				continue
			}
			ae, isApp := apperr.As(err)
			if !isApp || ae.Kind != apperr.KindValidation && ae.Kind != apperr.KindForbidden && ae.Kind != apperr.KindNotFound && ae.Kind != apperr.KindConflict {
				return nil, fmt.Errorf("imports: row %d: link: %w", a.line, err)
			}
			msg := pl.s.catalog.T(pl.lang, ae.Key, ae.Args)
			if len(ae.Fields) > 0 {
				msg = pl.s.fieldMessage(pl.lang, ae.Fields[0])
			}
			return []RowError{{Row: a.line, Loc: []any{"rows", a.line, c.field.Name}, Column: c.heading, Type: "link_refused", Msg: msg}}, errRowRefused
		}
	}
	return nil, nil
}

// errRowRefused ends a commit whose row the engine refused.
var errRowRefused = errors.New("imports: a row was refused")

// rowsRefused is the 422 of a commit naming the refused row's fields.
func rowsRefused(report []RowError) error {
	fields := make([]apperr.FieldError, 0, len(report))
	for _, r := range report {
		field, _ := r.Loc[len(r.Loc)-1].(string)
		fields = append(fields, apperr.FieldError{Field: field, Loc: r.Loc, Message: r.Msg, Type: r.Type})
	}
	return apperr.Validation(fields...)
}

// Undo deletes the records im created, provided none of them changed
// since (each still at row_version 1): all of them or none (409).
func (s *Service) Undo(ctx context.Context, im *Import) error {
	if im.State != stateCommitted {
		return apperr.Conflict("server.imports.not_committed").WithCode("not_committed")
	}
	if err := s.running1(im); err != nil {
		return err
	}
	if im.Entity == ContractWorkbookEntity {
		return s.undoContractWorkbook(ctx, im)
	}
	ent, err := s.importable(im.Entity)
	if err != nil {
		return err
	}
	if err := s.engine.Require(ctx, "remove", im.Entity); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		var all []int64
		err := eachChunk(ctx, tx, im.ID, func(_ int, _ []storedRow, created []int64) error {
			all = append(all, created...)
			return nil
		})
		if err != nil {
			return err
		}
		if err := s.unchanged(ctx, tx, ent, all); err != nil {
			return err
		}
		undo := tables.WithHistoryNote(ctx, fmt.Sprintf("undo import %d: %s", im.ID, im.FileName))
		linked := mappedLinks(ent, im.Mapping)
		for i := len(all) - 1; i >= 0; i-- {
			if err := s.unlinkAll(undo, tx, ent, linked, all[i]); err != nil {
				return err
			}
			if err := s.engine.DeleteIn(undo, tx, im.Entity, all[i], 1); err != nil {
				if apperr.IsKind(err, apperr.KindConflict) || apperr.IsKind(err, apperr.KindNotFound) {
					return apperr.Conflict("server.imports.changed").WithCode("changed").Wrap(err)
				}
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE data_import SET import_state = ?, undone_at = ? WHERE import_id = ?`,
			stateUndone, s.now().UTC().Truncate(time.Second), im.ID)
		if err != nil {
			return fmt.Errorf("imports: mark undone: %w", err)
		}
		return nil
	})
}

// mappedLinks are the relations of ent that an import's mapping filled
// (its link columns): the links its commit made.
func mappedLinks(ent *schema.Entity, mapping map[string]string) []*schema.Relation {
	var out []*schema.Relation
	for _, rel := range importLinks(ent) {
		api := rel.APIName(ent.Name)
		for _, target := range mapping {
			if target == api {
				out = append(out, rel)
				break
			}
		}
	}
	return out
}

// unlinkAll removes the links of record id of ent over rels (the relations
// the import linked, mappedLinks), through the engine (UnlinkIn, with
// history), so that undo can remove the record. An import without link
// columns reads nothing here (a list per record doubled the undo's time).
func (s *Service) unlinkAll(ctx context.Context, tx *db.Tx, ent *schema.Entity, rels []*schema.Relation, id int64) error {
	for _, rel := range rels {
		api := rel.APIName(ent.Name)
		target, ok := s.engine.Registry().Entity(rel.Target)
		if !ok {
			return fmt.Errorf("imports: no entity %s", rel.Target)
		}
		cur, err := s.engine.ListIn(ctx, tx, tables.ListQuery{Entity: api, Data: map[string]any{ent.PK: id}, PerPage: 1000})
		if err != nil {
			return err
		}
		var others []int64
		for cur.Next() {
			if other, ok := cur.Record()[target.PK].(int64); ok {
				others = append(others, other)
			}
		}
		err = cur.Err()
		cur.Close()
		if err != nil {
			return err
		}
		for _, other := range others {
			if err := s.engine.UnlinkIn(ctx, tx, tables.LinkCommand{Relation: api, OwnerID: id, Data: map[string]any{target.PK: other}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// unchanged answers 409 unless every record ids of ent is still in the
// caller's tenant at row_version 1.
func (s *Service) unchanged(ctx context.Context, tx *db.Tx, ent *schema.Entity, ids []int64) error {
	src, err := s.engine.Scoped(ctx, ent.Name, "t")
	if err != nil {
		return err
	}
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := append([]any{}, src.Args...)
		marks := make([]string, len(chunk))
		for i, id := range chunk {
			marks[i] = "?"
			args = append(args, id)
		}
		var n int
		err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+src.SQL+" WHERE t."+ent.PK+" IN ("+strings.Join(marks, ",")+") AND t.row_version = 1", args...).Scan(&n)
		if err != nil {
			return fmt.Errorf("imports: check the records: %w", err)
		}
		if n != len(chunk) {
			return apperr.Conflict("server.imports.changed").WithCode("changed")
		}
	}
	return nil
}

package imports

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/i18n"
)

// The error dashboard (internal/errorboard) lists the imports whose commit
// failed for good — the job's last attempt failed, or the job ended with a
// reason (the uploader may no longer act) — and retries or dismisses them
// through this file: it reads no table of this package itself.

// FailedImport is an import whose commit failed, as the error dashboard
// lists it: who uploaded which file of which entity, when it failed, and
// why (in the uploader's language).
type FailedImport struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	UserEmail string    `json:"user_email"`
	Entity    string    `json:"entity"`
	FileName  string    `json:"file_name"`
	Rows      int       `json:"rows"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	FailedAt  time.Time `json:"failed_at"`
	Reason    string    `json:"reason"`
	// Retryable says whether Retry may run the commit again: the import is
	// still validated without errors (not validated anew with errors,
	// committed or under way).
	Retryable bool `json:"retryable"`
}

// ErrNoSuchFailure is answered for an import that has no failed commit on
// the dashboard (never failed, dismissed, or retried since).
var ErrNoSuchFailure = errors.New("imports: no such failed import")

// FailedImports answers the newest failed imports not dismissed, at most
// limit, of every user, after recovering the commits that lost their job
// (RecoverLost): the caller (the error dashboard) checks who may see
// them.
func (s *Service) FailedImports(ctx context.Context, limit int) ([]FailedImport, error) {
	if err := s.RecoverLost(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT i.import_id, i.user_id, u.user_email, i.import_entity, i.import_file_name, i.import_row_count,
		i.import_state, i.created_at, i.import_failed_at, i.import_commit_error
		FROM data_import i JOIN users u ON u.user_id = i.user_id
		WHERE i.import_commit_error IS NOT NULL AND i.import_failure_dismissed_at IS NULL
		ORDER BY i.import_id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("imports: failed imports: %w", err)
	}
	defer rows.Close()
	out := []FailedImport{}
	for rows.Next() {
		var f FailedImport
		var failed sql.NullTime
		if err := rows.Scan(&f.ID, &f.UserID, &f.UserEmail, &f.Entity, &f.FileName, &f.Rows, &f.State, &f.CreatedAt, &failed, &f.Reason); err != nil {
			return nil, fmt.Errorf("imports: failed imports: %w", err)
		}
		f.CreatedAt = f.CreatedAt.UTC()
		f.FailedAt = f.CreatedAt
		if failed.Valid {
			f.FailedAt = failed.Time.UTC()
		}
		f.Retryable = f.State == stateValid
		out = append(out, f)
	}
	return out, rows.Err()
}

// RetryFailed runs the failed commit of import id again, as a job with
// the rights and tenant of the user who uploaded it (never the caller's):
// only while the import is still validated without errors (409 otherwise:
// validated anew with errors, committed, or under way), and only while its
// uploader may still act (409). The entry leaves the dashboard; a new
// failure brings it back.
func (s *Service) RetryFailed(ctx context.Context, id int64) error {
	im, err := loadAnyImport(ctx, s.db, id)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return ErrNoSuchFailure
	}
	if err != nil {
		return err
	}
	if im.CommitError == "" {
		return ErrNoSuchFailure
	}
	if err := readyToCommit(im); err != nil {
		if apperr.IsKind(err, apperr.KindValidation) {
			return apperr.Conflict("server.imports.retry_not_valid").WithCode("not_valid")
		}
		return err
	}
	if s.principals == nil {
		return errors.New("imports: retry: no principals")
	}
	p, err := s.principals.PrincipalOf(ctx, im.UserID)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return apperr.Conflict("server.imports.uploader_gone").WithCode("uploader_gone")
	}
	if err != nil {
		return err
	}
	lang := im.lang
	if lang == "" {
		lang = i18n.LangFrom(ctx)
	}
	as := auth.WithPrincipal(i18n.WithLang(ctx, lang), p)
	return s.CommitLater(as, im)
}

// DismissFailed takes the failed import id off the error dashboard.
func (s *Service) DismissFailed(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, `UPDATE data_import SET import_failure_dismissed_at = ?
		WHERE import_id = ? AND import_commit_error IS NOT NULL AND import_failure_dismissed_at IS NULL`, s.now().UTC().Truncate(time.Second), id)
	if err != nil {
		return fmt.Errorf("imports: dismiss failed import %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("imports: dismiss failed import %d: %w", id, err)
	} else if n != 1 {
		return ErrNoSuchFailure
	}
	return nil
}

// lostAfter is how long an import may be committing without a noted run
// of the queue before its commit counts as lost: the request notes the
// run right after enqueuing it, and the run notes itself when it starts.
const lostAfter = 5 * time.Minute

// RecoverLost puts back every import whose commit lost its job: still
// committing, but its run of the queue finished without ending the
// commit, or is gone (deleted, a process that died between moving the
// import and enqueuing it). Such an import would otherwise show its
// progress bar forever. Its commit wrote nothing (one transaction, rolled
// back with its process), so it is valid again with the reason, and
// listed on the error dashboard to be retried or dismissed, as a commit
// that failed for good. A run still waiting or running (River rescues a
// run whose instance died and retries it) is left alone.
func (s *Service) RecoverLost(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT import_id FROM data_import WHERE import_state = ?`, stateCommitting)
	if err != nil {
		return fmt.Errorf("imports: committing imports: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("imports: committing imports: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("imports: committing imports: %w", err)
	}
	for _, id := range ids {
		im, err := loadAnyImport(ctx, s.db, id)
		if apperr.IsKind(err, apperr.KindNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if _, err := s.recoverIfLost(ctx, im); err != nil {
			return err
		}
	}
	return nil
}

// recoverIfLost puts im back to valid, with the reason, when its commit
// lost its job (RecoverLost), and says whether it did; im is changed to
// match.
func (s *Service) recoverIfLost(ctx context.Context, im *Import) (bool, error) {
	if im.State != stateCommitting || s.progressOf(im.ID) != nil {
		return false, nil
	}
	lost, err := s.lost(ctx, im)
	if err != nil || !lost {
		return false, err
	}
	lang := im.lang
	if lang == "" {
		lang = "en"
	}
	msg := s.catalog.T(lang, "server.imports.commit_lost", nil)
	now := s.now().UTC().Truncate(time.Second)
	// Only while it still waits for the same run: a run that ended the
	// commit meanwhile, or a new commit, wins.
	res, err := s.db.ExecContext(ctx, `UPDATE data_import SET import_state = ?, import_commit_error = ?, import_failed_at = ?,
		import_failure_dismissed_at = NULL, import_done_count = 0
		WHERE import_id = ? AND import_state = ? AND COALESCE(import_job_id, 0) = ?`,
		stateValid, msg, now, im.ID, stateCommitting, im.jobID)
	if err != nil {
		return false, fmt.Errorf("imports: recover the lost commit of import %d: %w", im.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("imports: recover the lost commit of import %d: %w", im.ID, err)
	}
	if n != 1 {
		return false, nil
	}
	s.log.Warn("import commit lost its job", "import", im.ID, "run", im.jobID)
	im.State, im.CommitError, im.done, im.Progress = stateValid, msg, 0, nil
	return true, nil
}

// lost says whether the commit of im (committing) has no run of the
// queue left to end it.
func (s *Service) lost(ctx context.Context, im *Import) (bool, error) {
	if im.jobID != 0 && s.queue != nil {
		alive, err := s.queue.Alive(ctx, im.jobID)
		return !alive, err
	}
	since := im.committingAt
	if since.IsZero() {
		since = im.CreatedAt // moved to committing before the time was kept
	}
	return s.now().Sub(since) > lostAfter, nil
}

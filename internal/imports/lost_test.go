package imports_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/imports"
	"portfolio/internal/jobs"
	"portfolio/internal/testkit"
)

// boardImport is a failed import as GET /backoffice/errors lists it.
type boardImport struct {
	ID        int64  `json:"id"`
	Reason    string `json:"reason"`
	Retryable bool   `json:"retryable"`
	State     string `json:"state"`
}

// boardImports are the imports the error dashboard lists, by id.
func (f *fixture) boardImports(t testing.TB) map[int64]boardImport {
	t.Helper()
	r := f.ta.Do("GET", "/backoffice/errors", f.ta.Token(admin), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /backoffice/errors: %d %s", r.Status, r.Body)
	}
	var b struct{ Imports []boardImport }
	r.JSON(t, &b)
	out := map[int64]boardImport{}
	for _, im := range b.Imports {
		out[im.ID] = im
	}
	return out
}

// TestLostCommitJob: an import whose commit job vanished — the process
// died mid-commit and the queue's run was deleted, or the run was
// discarded, or the run was never noted and the import has been
// committing for longer than the grace period — is recovered when the
// error dashboard or the import is read: valid again with the reason,
// nothing of the lost commit written (no rows, no keys, no progress),
// listed on the dashboard to be retried (the commit then runs through
// the queue as its uploader) or dismissed. A run still waiting is left
// alone.
func TestLostCommitJob(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		n := imports.AsyncRows + 1
		before := f.posCount(t)
		// Three large imports enqueued while no instance works the queue.
		var ids [3]int64
		for i, prefix := range []string{"Vanished", "Discarded", "Unnoted"} {
			up := f.mustUpload(t, admin, "pos", workbook(t, posRows(prefix, n, "Udo Unique")))
			if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
				t.Fatalf("validate: %d %.300s", status, body)
			}
			if r := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); r.Status != http.StatusAccepted {
				t.Fatalf("commit: %d %s", r.Status, r.Body)
			}
			ids[i] = up.ImportID
		}
		vanished, discarded, unnoted := ids[0], ids[1], ids[2]
		runOf := func(id int64) int64 {
			t.Helper()
			return f.one(t, `SELECT COALESCE(import_job_id, 0) FROM data_import WHERE import_id = ?`, id)
		}
		for _, id := range ids {
			if run := runOf(id); run == 0 || f.one(t, `SELECT COUNT(*) FROM river_job WHERE id = ? AND kind = ? AND state = 'available'`, run, imports.CommitJob) != 1 {
				t.Fatalf("import %d notes run %d, not its waiting run", id, run)
			}
		}
		// Runs waiting for a worker are alive: nothing is lost.
		if got := f.boardImports(t); len(got) != 0 {
			t.Fatalf("the board lists waiting commits: %+v", got)
		}
		if im, body := f.readImport(t, vanished); im.State != "committing" || im.Progress == nil {
			t.Fatalf("waiting commit: %s", body)
		}

		// The first commit's process dies after its first chunk (the
		// attempt's transaction rolls back), and its run vanishes.
		imports.SetAfterChunk(f.ta.Imports, func(int64, int) error { return errors.New("the process dies") })
		err := f.ta.Imports.RunCommitJob(ctx, jobs.Run{ID: runOf(vanished), Arg: strconv.FormatInt(vanished, 10), Attempt: 1, MaxAttempts: 3})
		imports.SetAfterChunk(f.ta.Imports, nil)
		if err == nil {
			t.Fatal("the dying attempt succeeded")
		}
		if _, err := d.ExecContext(ctx, `DELETE FROM river_job WHERE id = ?`, runOf(vanished)); err != nil {
			t.Fatal(err)
		}
		// The second's run was discarded (its last attempt lost with its instance).
		if _, err := d.ExecContext(ctx, `UPDATE river_job SET state = 'discarded', finalized_at = created_at WHERE id = ?`, runOf(discarded)); err != nil {
			t.Fatal(err)
		}
		// The third's run was never noted (and is gone): lost only after
		// the grace period.
		unnotedRun := runOf(unnoted)
		if _, err := d.ExecContext(ctx, `UPDATE data_import SET import_job_id = NULL, import_committing_at = ? WHERE import_id = ?`,
			time.Now().UTC().Add(-time.Minute), unnoted); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `DELETE FROM river_job WHERE id = ?`, unnotedRun); err != nil {
			t.Fatal(err)
		}

		// The uploader reading the discarded one sees it valid with the reason.
		im, body := f.readImport(t, discarded)
		if im.State != "valid" || im.Progress != nil || !strings.Contains(body, `"commit_error":"The background job committing this import was lost`) {
			t.Fatalf("read after the run was discarded: %.400s", body)
		}
		board := f.boardImports(t)
		if len(board) != 2 || !board[vanished].Retryable || board[vanished].State != "valid" || !strings.Contains(board[vanished].Reason, "was lost") ||
			!board[discarded].Retryable {
			t.Fatalf("board after the runs vanished: %+v", board)
		}
		// Nothing of the dead commit stayed: no rows, no keys, no progress.
		if got := f.posCount(t); got != before {
			t.Fatalf("rows written: %d", got-before)
		}
		if got := f.one(t, `SELECT COUNT(*) FROM data_import_chunk WHERE import_id = ? AND created_ids IS NOT NULL`, vanished); got != 0 {
			t.Fatalf("chunks with keys: %d", got)
		}
		if got := f.one(t, `SELECT import_done_count FROM data_import WHERE import_id = ?`, vanished); got != 0 {
			t.Fatalf("progress kept: %d", got)
		}

		// Past the grace period the unnoted one is lost too.
		if _, err := d.ExecContext(ctx, `UPDATE data_import SET import_committing_at = ? WHERE import_id = ?`,
			time.Now().UTC().Add(-10*time.Minute), unnoted); err != nil {
			t.Fatal(err)
		}
		if board := f.boardImports(t); len(board) != 3 || !board[unnoted].Retryable {
			t.Fatalf("board past the grace period: %+v", board)
		}

		// Dismissed, it leaves the board; retried, the commit runs as a
		// new run of the queue and creates every row once.
		if r := f.post(t, admin, fmt.Sprintf("/backoffice/errors/imports/%d/dismiss", unnoted)); r.Status != http.StatusNoContent {
			t.Fatalf("dismiss: %d %s", r.Status, r.Body)
		}
		if r := f.post(t, admin, fmt.Sprintf("/backoffice/errors/imports/%d/retry", vanished)); r.Status != http.StatusNoContent {
			t.Fatalf("retry: %d %s", r.Status, r.Body)
		}
		if board := f.boardImports(t); len(board) != 1 || board[discarded].ID != discarded {
			t.Fatalf("board after dismiss and retry: %+v", board)
		}
		if run := runOf(vanished); run == 0 || f.one(t, `SELECT COUNT(*) FROM river_job WHERE id = ? AND state = 'available'`, run) != 1 {
			t.Fatalf("the retry's run %d is not waiting", run)
		}
		startQueue(t, f)
		if im, body := f.waitState(t, vanished, "committed"); im.Created != n {
			t.Fatalf("committed: %.400s", body)
		}
		if got := f.posCount(t); got != before+int64(n) {
			t.Fatalf("pos count %d, want %d", got, before+int64(n))
		}
		if got := f.one(t, `SELECT COUNT(*) FROM pos WHERE pos_branchnumber LIKE 'Discarded-%' OR pos_branchnumber LIKE 'Unnoted-%'`); got != 0 {
			t.Fatalf("rows of the imports not retried: %d", got)
		}
	})
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portfolio/internal/crashtest"
	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestCluster runs scripts/cluster.sh (three instances of this binary on
// one fresh PostgreSQL database behind tools/clusterproxy) and drives it
// (docs/reliability.md, decision 0033):
//   - a user logs in through one instance and works through the others;
//     the refresh token works on another instance too;
//   - what one instance writes, the caches of another do not hide: counted
//     totals, rights (rights generation) and attribute labels;
//   - a ticket moved through one instance reaches an event stream on
//     another within a second (LISTEN/NOTIFY);
//   - every periodic job ran once in its period across the three, also
//     after the leadership moved (River's leader election, unique jobs);
//   - SIGKILL of one instance under the crash test's write load through the
//     proxy loses no acknowledged write, and the two others go on serving.
//
// PostgreSQL only: skipped, loudly, without PORTFOLIO_TEST_POSTGRES_URL.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test skipped in -short mode")
	}
	admin := os.Getenv(testkit.PostgresURLEnv)
	if admin == "" {
		if os.Getenv(testkit.RequirePostgresEnv) == "1" {
			t.Fatalf("%s is not set but %s=1", testkit.PostgresURLEnv, testkit.RequirePostgresEnv)
		}
		fmt.Fprintf(os.Stderr, "\n#### TestCluster SKIPPED: the cluster runs on PostgreSQL; set %s ####\n\n", testkit.PostgresURLEnv)
		t.Skipf("SKIPPED: three instances need one PostgreSQL; set %s to run the cluster test", testkit.PostgresURLEnv)
	}
	// Bounded: startup about 20 s, the checks about 20 s on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	started := time.Now()
	dbURL, drop, err := crashtest.CreateDatabase(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	port := freePortRun(t, 4)
	env := append(os.Environ(), childEnv+"=1", "PORTFOLIO_DATABASE_URL="+dbURL, "CLUSTER_DIR="+dir,
		"CLUSTER_PORT="+strconv.Itoa(port), "CLUSTER_BIN="+exe, "CLUSTER_SEED=demo", "PORTFOLIO_LOG_LEVEL=warn")
	script := func(ctx context.Context, what string) error {
		out, err := os.OpenFile(filepath.Join(dir, "cluster-sh.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		defer out.Close()
		cmd := exec.CommandContext(ctx, "bash", filepath.Join("..", "..", "scripts", "cluster.sh"), what)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, out, out
		if err := cmd.Run(); err != nil {
			b, _ := os.ReadFile(out.Name())
			return fmt.Errorf("cluster.sh %s: %w\n%s", what, err, b)
		}
		return nil
	}
	// Stopped before the database is dropped (defers run last first).
	defer func() {
		sctx, scancel := context.WithTimeout(context.Background(), time.Minute)
		defer scancel()
		if err := script(sctx, "stop"); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			for _, name := range []string{"instance-1.log", "instance-2.log", "instance-3.log", "instance-proxy.log"} {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
					t.Logf("%s (last 3000 bytes):\n%s", name, tail(b, 3000))
				}
			}
		}
	}()
	if err := script(ctx, "start"); err != nil {
		t.Fatal(err)
	}
	t.Logf("cluster up after %s", time.Since(started).Round(time.Millisecond))
	inst := func(i int) string { return fmt.Sprintf("http://127.0.0.1:%d", port+i) }
	proxy := inst(0)
	d, err := db.Open(ctx, dbURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	t.Run("a session works on every instance", func(t *testing.T) {
		c1 := login(t, ctx, inst(1), "admin@demo.test", "cluster-a")
		for i := 1; i <= 3; i++ {
			c := &apiClient{base: inst(i), token: c1.token}
			if st, body := c.do(t, ctx, "GET", "/user/", nil); st != 200 || !strings.Contains(string(body), "admin@demo.test") {
				t.Fatalf("instance %d with the token of instance 1: %d %s", i, st, body)
			}
		}
		// Refresh on instance 2, use the new token on instance 3, refresh
		// again on instance 3; the spent refresh token is refused on 1.
		c2 := &apiClient{base: inst(2)}
		st, body := c2.do(t, ctx, "POST", "/auth/refresh/token", map[string]any{"user_browser_hash": "cluster-a", "user_refresh_token": c1.refresh})
		var ans struct {
			Token   string `json:"user_token"`
			Refresh string `json:"user_refresh_token"`
		}
		if st != 200 || json.Unmarshal(body, &ans) != nil || ans.Token == "" {
			t.Fatalf("refresh on instance 2: %d %s", st, body)
		}
		c3 := &apiClient{base: inst(3), token: ans.Token}
		if st, body := c3.do(t, ctx, "GET", "/user/", nil); st != 200 {
			t.Fatalf("instance 3 with the token refreshed on instance 2: %d %s", st, body)
		}
		st, body = c3.do(t, ctx, "POST", "/auth/refresh/token", map[string]any{"user_browser_hash": "cluster-a", "user_refresh_token": ans.Refresh})
		if st != 200 {
			t.Fatalf("second refresh on instance 3: %d %s", st, body)
		}
		// The first token, already rotated twice and past its grace window
		// (or from another browser): refused on instance 1.
		c1b := &apiClient{base: inst(1)}
		if st, body := c1b.do(t, ctx, "POST", "/auth/refresh/token", map[string]any{"user_browser_hash": "another-browser", "user_refresh_token": c1.refresh}); st != 401 {
			t.Fatalf("reuse of a rotated refresh token from another browser on instance 1: %d %s, want 401", st, body)
		}
	})

	a1 := login(t, ctx, inst(1), "admin@demo.test", "cluster-b")
	a2 := &apiClient{base: inst(2), token: a1.token}

	t.Run("a write through one instance is seen by the caches of another", func(t *testing.T) {
		// Counted totals: instance 2 caches the total of a list per data
		// generation, which lives in the database.
		total := func() int64 {
			st, body := a2.do(t, ctx, "POST", "/api/", map[string]any{"action": "read-rich", "entity": "tag", "count": true, "per_page": 1})
			var ans struct {
				Data struct {
					Total int64 `json:"total"`
				} `json:"data"`
			}
			if st != 200 || json.Unmarshal(body, &ans) != nil {
				t.Fatalf("list tags on instance 2: %d %s", st, body)
			}
			return ans.Data.Total
		}
		before := total()
		if again := total(); again != before {
			t.Fatalf("tag total changed without a write: %d, %d", before, again)
		}
		if st, body := a1.do(t, ctx, "POST", "/api/", map[string]any{"action": "create", "entity": "tag", "data": map[string]any{"tag_name": "cluster tag"}}); st != 201 {
			t.Fatalf("create a tag on instance 1: %d %s", st, body)
		}
		if after := total(); after != before+1 {
			t.Errorf("instance 2 counts %d tags after instance 1 created one (before: %d)", after, before)
		}

		// Rights: instance 2 caches a user's rights per rights generation;
		// the administrator takes a right away through instance 1.
		member := login(t, ctx, inst(2), "team_member@demo.test", "cluster-c")
		probe := map[string]any{"action": "read-rich", "entity": "location", "per_page": 1}
		if st, body := member.do(t, ctx, "POST", "/api/", probe); st != 200 {
			t.Fatalf("team member lists locations on instance 2: %d %s", st, body)
		}
		var crudID, version int64
		if err := d.QueryRowContext(ctx, `SELECT crud_id, row_version FROM crud WHERE tablegroup_id = 7
			AND role_id = (SELECT role_id FROM role WHERE role_code = 'team_member')`).Scan(&crudID, &version); err != nil {
			t.Fatal(err)
		}
		if st, body := a1.do(t, ctx, "POST", "/api/", map[string]any{"action": "update-field", "entity": "crud", "id": crudID,
			"field": "crud_r", "value": 0, "row_version": version}); st != 200 {
			t.Fatalf("take the right away on instance 1: %d %s", st, body)
		}
		if st, body := member.do(t, ctx, "POST", "/api/", probe); st != 403 {
			t.Errorf("team member on instance 2 after instance 1 took the right away: %d %s, want 403", st, body)
		}

		// Attribute labels: instance 2 caches them per language (30 s for
		// edits no engine saw); an edit through instance 1 reaches it over
		// LISTEN/NOTIFY.
		label := func() string {
			st, body := a2.do(t, ctx, "GET", "/api/definitions/pos?lang=de", nil)
			var def struct {
				Attributes []struct {
					Name  string `json:"attribute"`
					Label string `json:"attribute_i18n"`
				} `json:"attributes"`
			}
			if st != 200 || json.Unmarshal(body, &def) != nil {
				t.Fatalf("definitions on instance 2: %d %.300s", st, body)
			}
			for _, a := range def.Attributes {
				if a.Name == "pos_name" {
					return a.Label
				}
			}
			t.Fatalf("no pos_name in the definitions: %.300s", body)
			return ""
		}
		old := label()
		var labelID, labelVersion int64
		err := d.QueryRowContext(ctx, `SELECT attribute_i18n_id, row_version FROM attribute_i18n WHERE attribute_name = 'pos_name' AND attribute_lang = 'de'`).
			Scan(&labelID, &labelVersion)
		var st int
		var body []byte
		if err == nil {
			st, body = a1.do(t, ctx, "POST", "/api/", map[string]any{"action": "update", "entity": "attribute_i18n", "id": labelID,
				"row_version": labelVersion, "data": map[string]any{"attribute_nice_name": "Filiale im Cluster"}})
		} else {
			st, body = a1.do(t, ctx, "POST", "/api/", map[string]any{"action": "create", "entity": "attribute_i18n",
				"data": map[string]any{"attribute_name": "pos_name", "attribute_lang": "de", "attribute_nice_name": "Filiale im Cluster"}})
		}
		if st/100 != 2 {
			t.Fatalf("edit the label on instance 1: %d %s", st, body)
		}
		deadline := time.Now().Add(time.Second)
		for got := label(); got != "Filiale im Cluster"; got = label() {
			if time.Now().After(deadline) {
				t.Fatalf("instance 2 still labels pos_name %q (was %q) a second after instance 1 changed it", got, old)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})

	t.Run("a ticket moved on one instance reaches a watcher on another", func(t *testing.T) {
		// The stream ticket comes from instance 1, the stream from instance
		// 3: the ticket is in the database, not in an instance's memory.
		st, body := a1.do(t, ctx, "POST", "/events/ticket", nil)
		var tk struct {
			Ticket string `json:"ticket"`
		}
		if st != 200 || json.Unmarshal(body, &tk) != nil {
			t.Fatalf("stream ticket on instance 1: %d %s", st, body)
		}
		sctx, scancel := context.WithCancel(ctx)
		defer scancel()
		req, _ := http.NewRequestWithContext(sctx, "GET", inst(3)+"/events?ticket="+url.QueryEscape(tk.Ticket), nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("stream on instance 3: %d %s", res.StatusCode, b)
		}
		type event struct {
			Entity string `json:"entity"`
			ID     int64  `json:"id"`
			Action string `json:"action"`
			at     time.Time
		}
		events := make(chan event, 64)
		go func() {
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					var ev event
					if json.Unmarshal([]byte(data), &ev) == nil {
						ev.at = time.Now()
						events <- ev
					}
				}
			}
			close(events)
		}()
		var fx struct{ board, first, second, pos int64 }
		if err := d.QueryRowContext(ctx, `SELECT MIN(columnx_id), MAX(columnx_id), (SELECT MIN(pos_id) FROM pos) FROM columnx WHERE columnx_id IN (1, 2)`).
			Scan(&fx.first, &fx.second, &fx.pos); err != nil {
			t.Fatal(err)
		}
		var created struct {
			Data struct {
				ID      int64 `json:"ticket_id"`
				Version int64 `json:"row_version"`
			} `json:"data"`
		}
		st, body = a1.do(t, ctx, "POST", "/tickets", map[string]any{"ticket_name": "cluster ticket", "pos_id": fx.pos, "priority_id": 1,
			"board_id": 1, "columnx_id": fx.first})
		if st != 201 || json.Unmarshal(body, &created) != nil {
			t.Fatalf("create a ticket on instance 1: %d %s", st, body)
		}
		st, body = a2.do(t, ctx, "PUT", "/tickets/update", map[string]any{"ticket_id": created.Data.ID, "row_version": created.Data.Version,
			"columnx_id": fx.second})
		moved := time.Now()
		if st != 200 {
			t.Fatalf("move the ticket on instance 2: %d %s", st, body)
		}
		timeout := time.After(time.Second)
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					t.Fatal("the stream on instance 3 ended before the move arrived")
				}
				if ev.Entity == "ticket" && ev.ID == created.Data.ID && ev.Action == "update" {
					t.Logf("move on instance 2 reached the watcher on instance 3 %s after its answer (negative: before the answer arrived)", ev.at.Sub(moved).Round(time.Microsecond))
					return
				}
			case <-timeout:
				t.Fatal("the move on instance 2 did not reach the watcher on instance 3 within a second")
			}
		}
	})

	// checkJobs asserts that every periodic job ran (was inserted by the
	// periodic enqueuer, which marks its jobs "periodic") at most once per
	// period, and the daily ones exactly once so far. (index_adjustments
	// is also enqueued after an import: those runs are not periodic.)
	checkJobs := func(t *testing.T) {
		t.Helper()
		rows, err := d.QueryContext(ctx, `SELECT kind, COUNT(*), COUNT(DISTINCT FLOOR(EXTRACT(EPOCH FROM created_at) / 300)) FROM river_job
			WHERE metadata->>'periodic' = 'true' GROUP BY kind ORDER BY kind`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		daily := map[string]bool{"document_sweep": true, "session_purge": true, "text_index_merge": true, "planner_statistics": true, "deadline_notice_dates": true,
			"deadline_alerts": true, "index_adjustments": true}
		seen := map[string]int64{}
		for rows.Next() {
			var kind string
			var n, periods int64
			if err := rows.Scan(&kind, &n, &periods); err != nil {
				t.Fatal(err)
			}
			seen[kind] = n
			switch {
			case kind == "mail_fetch" && n != periods:
				t.Errorf("mail_fetch (every 5 minutes) ran %d times in %d periods", n, periods)
			case daily[kind] && n != 1:
				t.Errorf("daily job %s ran %d times", kind, n)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if seen["document_sweep"] == 0 || seen["mail_fetch"] == 0 {
			t.Errorf("the periodic jobs never ran: %v", seen)
		}
		t.Logf("job runs by kind: %v", seen)
	}
	leader := func() (string, time.Time) {
		var id string
		var elected time.Time
		if err := d.QueryRowContext(ctx, `SELECT leader_id, elected_at FROM river_leader`).Scan(&id, &elected); err != nil {
			return "", time.Time{}
		}
		return id, elected
	}

	t.Run("a periodic job runs once per period across the three", func(t *testing.T) {
		deadline := time.Now().Add(30 * time.Second)
		for id, _ := leader(); id == ""; id, _ = leader() {
			if time.Now().After(deadline) {
				t.Fatal("no instance was elected leader within 30 s")
			}
			time.Sleep(200 * time.Millisecond)
		}
		// Every instance registers the same periodic jobs; only the leader
		// enqueues them, and each insert is unique within its period.
		waitFor(t, 20*time.Second, "the periodic jobs' first runs", func() bool {
			var n int
			_ = d.QueryRowContext(ctx, `SELECT COUNT(DISTINCT kind) FROM river_job`).Scan(&n)
			return n >= 7
		})
		checkJobs(t)
	})

	t.Run("SIGKILL of one instance loses no acknowledged write; the others go on", func(t *testing.T) {
		load, err := crashtest.NewLoad(ctx, proxy, dbURL, filepath.Join(dir, "data"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := load.Start(ctx, 4); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		pid, err := os.ReadFile(filepath.Join(dir, "instance-3.pid"))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
		if err := syscall.Kill(n, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		_, ackedAtKill, _ := load.Counts()
		// More writers, after the kill: the proxy must send them to the
		// two that live.
		time.Sleep(300 * time.Millisecond)
		if err := load.Start(ctx, 2); err != nil {
			t.Fatalf("log in through the proxy after the kill: %v", err)
		}
		time.Sleep(2 * time.Second)
		if err := load.Stop(); err != nil {
			t.Fatal(err)
		}
		sent, acked, unacked := load.Counts()
		t.Logf("writes through the proxy: %d sent, %d acknowledged (%d before the kill), %d without an answer", sent, acked, ackedAtKill, unacked)
		if acked <= ackedAtKill {
			t.Errorf("nothing acknowledged after the kill (%d before, %d in all)", ackedAtKill, acked)
		}
		lost, err := load.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lost {
			t.Error("lost:", l)
		}
		// The proxy skips the dead instance: every request answers.
		pc := &apiClient{base: proxy, token: a1.token}
		for i := 0; i < 12; i++ {
			if st, body := pc.do(t, ctx, "GET", "/user/", nil); st != 200 {
				t.Fatalf("request %d through the proxy %s after the kill: %d %s", i, time.Since(killed).Round(time.Millisecond), st, body)
			}
		}

		// The proxy's health check has taken the dead instance out.
		st, body := pc.do(t, ctx, "GET", "/_proxy/status", nil)
		var ps struct {
			Backends []struct {
				URL string `json:"url"`
				Up  bool   `json:"up"`
			} `json:"backends"`
		}
		if st != 200 || json.Unmarshal(body, &ps) != nil || len(ps.Backends) != 3 {
			t.Fatalf("proxy status: %d %s", st, body)
		}
		for i, b := range ps.Backends {
			if b.Up != (i != 2) {
				t.Errorf("proxy status after killing instance 3: %s up=%v", b.URL, b.Up)
			}
		}

		// The leader's term is lost (as when it died or stalled past its
		// term): a new election among the survivors; the new leader
		// enqueues the periodic jobs again and uniqueness keeps them at
		// one run per period.
		before, _ := leader()
		if _, err := d.ExecContext(ctx, `DELETE FROM river_leader`); err != nil {
			t.Fatal(err)
		}
		dropped := time.Now()
		waitFor(t, 40*time.Second, "a new leader", func() bool {
			id, at := leader()
			return id != "" && at.After(dropped.Add(-time.Second))
		})
		after, _ := leader()
		t.Logf("leader before: %s, after the new election: %s", before, after)
		time.Sleep(2 * time.Second) // its periodic enqueuer runs on start
		checkJobs(t)
	})
	t.Logf("cluster test took %s", time.Since(started).Round(time.Millisecond))
}

// apiClient sends JSON requests to one base URL with a bearer token.
type apiClient struct {
	base, token, refresh string
}

func (c *apiClient) do(t *testing.T, ctx context.Context, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s%s: %v", method, c.base, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// login logs user in through base with the demo password.
func login(t *testing.T, ctx context.Context, base, user, browser string) *apiClient {
	t.Helper()
	form := url.Values{"username": {user}, "password": {"Demo-Password-1"}, "user_browser_hash": {browser}}
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		Access  string `json:"access_token"`
		Refresh string `json:"refresh_token"`
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || json.Unmarshal(b, &tok) != nil || tok.Access == "" {
		t.Fatalf("login of %s on %s: %d %s", user, base, res.StatusCode, b)
	}
	return &apiClient{base: base, token: tok.Access, refresh: tok.Refresh}
}

func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// freePortRun is the first of n consecutive loopback ports nobody listens
// on now (the proxy and the instances of scripts/cluster.sh).
func freePortRun(t *testing.T, n int) int {
	t.Helper()
	for try := 0; try < 50; try++ {
		first, err := crashtest.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if first+n > 65535 {
			continue
		}
		ok := true
		for p := first; p < first+n; p++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				ok = false
				break
			}
			l.Close()
		}
		if ok {
			return first
		}
	}
	t.Fatal("no run of free loopback ports")
	return 0
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

package events_test

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// BenchmarkFanOut200: 200 watchers on real HTTP streams (a third each of
// customer group 1, customer group 2 and internal users), ticket events of
// both groups published 20 times a second; reports the delivery latency
// (publish to the last watcher that may see it: p50, p99) and the heap.
// Run: go test ./internal/events/ -run '^$' -bench FanOut -benchtime 200x
func BenchmarkFanOut200(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { fanOut(b, testkit.NewSQLite(b)) })
	b.Run("postgres", func(b *testing.B) { fanOut(b, testkit.NewPostgres(b)) })
}

func fanOut(b *testing.B, d *db.DB) {
	ta := apptest.NewApp(b, d)
	const watchers = 200
	users := []string{lead, leadB, admin}
	idA, _ := ticketOfB(b, ta, 1)
	idB, _ := ticketOfB(b, ta, 2)

	var mu sync.Mutex
	got := map[string]int{}        // event id → watchers reached
	last := map[string]time.Time{} // event id → when the last one got it
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ready sync.WaitGroup
	for i := 0; i < watchers; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", ta.URL+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+ta.Token(users[i%3]))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("watcher %d: %v", i, err)
		}
		ready.Add(1)
		go func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			first := true
			var id string
			for sc.Scan() {
				line := sc.Text()
				if first {
					ready.Done()
					first = false
				}
				if strings.HasPrefix(line, "id: ") {
					id = strings.TrimPrefix(line, "id: ")
				}
				if strings.HasPrefix(line, "data: ") && id != "" {
					now := time.Now()
					mu.Lock()
					got[id]++
					last[id] = now
					mu.Unlock()
					id = ""
				}
			}
		}()
	}
	ready.Wait()
	// Who may see what: group 1's ticket reaches group 1 and internal
	// watchers, group 2's group 2 and internal ones.
	per := map[string]int{}
	for i := 0; i < watchers; i++ {
		per[users[i%3]]++
	}
	want := map[int64]int{idA: per[lead] + per[admin], idB: per[leadB] + per[admin]}
	type sent struct {
		at     time.Time
		record int64
	}
	var published []sent
	tick := time.NewTicker(50 * time.Millisecond) // 20 events a second
	defer tick.Stop()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		<-tick.C
		rec := idA
		if i%2 == 1 {
			rec = idB
		}
		published = append(published, sent{time.Now(), rec})
		if err := ta.Events.Publish(ctx, "ticket", rec, "update"); err != nil {
			b.Fatal(err)
		}
	}
	// Wait (bounded) for the last deliveries.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		total := 0
		for _, n := range got {
			total += n
		}
		mu.Unlock()
		if total >= (b.N+1)/2*want[idA]+b.N/2*want[idB] {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	// Event ids follow publication order: the i-th id received in id
	// order is the i-th event published.
	mu.Lock()
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	mu.Unlock()
	slices.SortFunc(ids, func(x, y string) int { return seqOf(x) - seqOf(y) })
	var lat []time.Duration
	missing := 0
	for i, id := range ids {
		if i >= len(published) {
			break
		}
		if got[id] != want[published[i].record] {
			missing += want[published[i].record] - got[id]
		}
		lat = append(lat, last[id].Sub(published[i].at))
	}
	for _, p := range published[min(len(ids), len(published)):] {
		missing += want[p.record]
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(float64(missing), "missed")
	if missing != 0 {
		b.Errorf("%d deliveries missing", missing)
	}
}

// seqOf is the sequence number of an event id: "<epoch>-<n>" (SQLite) or
// "<n>" (PostgreSQL).
func seqOf(id string) int {
	if _, s, ok := strings.Cut(id, "-"); ok {
		id = s
	}
	n, _ := strconv.Atoi(id)
	return n
}

func ticketOfB(b *testing.B, ta *apptest.TestApp, g int64) (int64, int64) {
	var id, v int64
	if err := ta.DB.QueryRowContext(context.Background(), `SELECT ticket.ticket_id, ticket.row_version FROM ticket
		JOIN pos ON pos.pos_id = ticket.pos_id JOIN company ON company.company_id = pos.company_id
		WHERE company.customergroup_id = ? ORDER BY ticket.ticket_id LIMIT 1`, g).Scan(&id, &v); err != nil {
		b.Fatal(err)
	}
	return id, v
}

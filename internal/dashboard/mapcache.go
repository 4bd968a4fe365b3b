package dashboard

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"portfolio/internal/tables"
)

// The portfolio map reads every point of sale of the caller with its
// location, address, city, country and its contracts' deadlines; on a
// large portfolio that is the dashboard's slowest call, and the home asks
// for it on every visit. Its answer is therefore cached per *scope* and
// *data generation* (decision 0019), as the engine caches its counts
// (internal/tables/countcache.go):
//
//   - the scope is everything the answer depends on besides the data: the
//     caller's tenant-scoped FROM items with their arguments (the engine's
//     Scoped sources, so two callers share an entry only when they see
//     the same rows), whether the caller may read the map's and the
//     lights' entities, and today (the lights move with the date);
//   - the data generation is the sum of the data_generation counters of
//     the tables the map reads, which triggers bump in every transaction
//     that writes one of them (migration 0013), so no write path can
//     forget it. The sum is read before the map is computed, so an entry
//     is never newer than its generation says: a write committed meanwhile
//     makes the next request compute anew.
//
// A write therefore shows on the next request, on any instance, and a
// caller never meets an entry computed in another tenant's scope.

// mapCacheSize bounds the cached maps (one per scope); a full cache
// starts over.
const mapCacheSize = 256

// mapTables are the tables the map reads (placedPoints, nextNotices).
var mapTables = []string{"pos", "pos_location", "location", "address", "city", "country", "contract", "contractaction"}

// quotedTable finds the tables a scoped source reads (the engine quotes
// every table name).
var quotedTable = regexp.MustCompile(`\b(?:FROM|JOIN) "((?:[^"]|"")+)"`)

type mapEntry struct {
	generation int64
	m          *PortfolioMap
}

type mapCache struct {
	mu sync.Mutex
	m  map[string]mapEntry
}

func (c *mapCache) get(key string, generation int64) (*PortfolioMap, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || e.generation != generation {
		return nil, false
	}
	return e.m, true
}

func (c *mapCache) put(key string, generation int64, m *PortfolioMap) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= mapCacheSize {
		c.m = map[string]mapEntry{}
	}
	if e, ok := c.m[key]; ok && e.generation > generation {
		return // a newer answer is there already
	}
	c.m[key] = mapEntry{generation: generation, m: m}
}

// mapScope is the cache key of the caller's map: the scoped sources of
// every entity the map reads with their arguments, the read rights that
// decide which parts it computes, and today.
// It also answers the tables the map's statements read: mapTables and
// every table the scoped sources name (the tenant scope may read, say,
// the companies of a customer group).
func (s *Service) mapScope(ctx context.Context, today string) (string, []string, error) {
	read := slices.Clone(mapTables)
	var b strings.Builder
	add := func(src tables.ScopedSource) {
		fmt.Fprintf(&b, "|%s%#v", src.SQL, src.Args)
		for _, m := range quotedTable.FindAllStringSubmatch(src.SQL, -1) {
			read = append(read, strings.ReplaceAll(m[1], `""`, `"`))
		}
	}
	b.WriteString(today)
	for _, set := range [][]string{{entityPos, entityLocation}, {entityContract, entityDeadline}} {
		ok, err := s.mayReadAll(ctx, set...)
		if err != nil {
			return "", nil, err
		}
		fmt.Fprintf(&b, "|%v", ok)
		if !ok {
			continue
		}
		for _, ent := range set {
			src, err := s.engine.Scoped(ctx, ent, "x")
			if err != nil {
				return "", nil, err
			}
			add(src)
		}
	}
	for _, ent := range []string{entityAddress, entityCity, entityCountry} {
		src, err := s.engine.Scoped(ctx, ent, "x")
		if err != nil {
			return "", nil, err
		}
		add(src)
	}
	slices.Sort(read)
	return b.String(), slices.Compact(read), nil
}

// mapGeneration is the sum of the data generations of tables; ok is
// false when one of them has no counter (then nothing is cached).
func (s *Service) mapGeneration(ctx context.Context, names []string) (gen int64, ok bool, err error) {
	marks := strings.TrimSuffix(strings.Repeat("?,", len(names)), ",")
	args := make([]any, len(names))
	for i, t := range names {
		args[i] = t
	}
	var n int
	var sum *int64
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*), SUM(generation) FROM data_generation WHERE table_name IN (`+marks+`)`, args...).Scan(&n, &sum)
	if err != nil {
		return 0, false, fmt.Errorf("dashboard: map generation: %w", err)
	}
	if n != len(names) || sum == nil {
		return 0, false, nil
	}
	return *sum, true, nil
}

// MapCached is Map served from the cache while the caller's scope and the
// data generation of the map's tables are unchanged.
func (s *Service) MapCached(ctx context.Context) (*PortfolioMap, error) {
	key, read, err := s.mapScope(ctx, s.now().UTC().Format("2006-01-02"))
	if err != nil {
		return nil, err
	}
	gen, ok, err := s.mapGeneration(ctx, read)
	if err != nil {
		return nil, err
	}
	if !ok {
		return s.Map(ctx)
	}
	if m, hit := s.maps.get(key, gen); hit {
		s.mapHits.Add(1)
		return m, nil
	}
	m, err := s.Map(ctx)
	if err != nil {
		return nil, err
	}
	s.maps.put(key, gen, m)
	return m, nil
}

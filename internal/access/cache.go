package access

import (
	"context"
	"strconv"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/platform/genmap"
)

// Cache keeps what rights are computed from (Grants) and the rules derived
// from them, per user, for one rights generation: the counter in the
// rights_generation table that a trigger bumps in every transaction that
// changes roles, teams, memberships, table groups, crud flags or access
// rows (migration 0010). Each request reads the generation with its
// session row, so a change is seen on the next request of every user, on
// every instance, and the cache never serves rights older than that.
//
// A Cache is safe for concurrent use; make one with NewCache.
type Cache struct {
	entries *genmap.Map[*cached]
}

// cached is one user's computed rights.
type cached struct {
	grants *Grants
	rules  []Rule
}

// NewCache returns an empty cache holding at most limit users' rights.
func NewCache(limit int) *Cache {
	return &Cache{entries: genmap.New[*cached](limit)}
}

// Grants returns the grants of s at generation, loading them through q
// unless the cache holds them. The result is shared: do not modify it.
func (c *Cache) Grants(ctx context.Context, q db.Querier, s Subject, generation int64) (*Grants, error) {
	e, err := c.get(ctx, q, s, generation)
	if err != nil {
		return nil, err
	}
	return e.grants, nil
}

// Rules returns the rules of s at generation (see Grants). The result is
// shared: do not modify it.
func (c *Cache) Rules(ctx context.Context, q db.Querier, s Subject, generation int64) ([]Rule, error) {
	e, err := c.get(ctx, q, s, generation)
	if err != nil {
		return nil, err
	}
	return e.rules, nil
}

func (c *Cache) get(ctx context.Context, q db.Querier, s Subject, generation int64) (*cached, error) {
	key := subjectKey(s)
	if e, ok := c.entries.Get(key, generation); ok {
		return e, nil
	}
	g, err := Load(ctx, q, s)
	if err != nil {
		return nil, err
	}
	e := &cached{grants: g, rules: g.Rules()}
	c.entries.Put(key, generation, e)
	return e, nil
}

// subjectKey names everything of s the grants depend on: the user (own
// table-group flags), the roles in rank order (the first decides), the
// teams (team-restricted rows), the options and whether s is external
// (hidden menus). Memberships valid from a date change the key, not the
// generation, so they are seen on the day they start.
func subjectKey(s Subject) string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(s.UserID, 10))
	b.WriteString("|r")
	for _, r := range s.Roles {
		b.WriteString(strconv.FormatInt(r.ID, 10))
		b.WriteByte(',')
	}
	b.WriteString("|t")
	for _, t := range s.Teams {
		b.WriteString(strconv.FormatInt(t.ID, 10))
		b.WriteByte(',')
	}
	b.WriteString("|o")
	for _, o := range s.Options {
		b.WriteString(strconv.Quote(o))
	}
	if s.External {
		b.WriteString("|x")
	}
	return b.String()
}

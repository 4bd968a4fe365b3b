// Package tables is the generic table engine: lists (filter, search, sort,
// page, count, stream), single reads, writes (create, update, single-field
// update, delete, bulk delete) with validation and history, relation reads
// and links, exports, custom lists and saved views, for every entity of
// internal/schema, behind POST /api/ and a few routes of its own (see
// Bind and docs/decisions/0004-generic-api.md).
//
// Every statement is built from the definitions (identifiers never come
// from a request) and starts from a source, which adds the caller's tenant
// scope (Scope): the one chokepoint of tenant isolation.
package tables

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/clock"
	"portfolio/internal/schema"
)

// Engine runs the generic operations over one database.
type Engine struct {
	db         *db.DB
	reg        *schema.Registry
	texts      *i18n.Catalog
	log        *slog.Logger
	now        func() time.Time
	hooks      map[string]Hook
	cats       map[string]*catalog // by entity name
	relCats    map[string]*catalog // by relation API name
	shares     tenantShares        // measured tenant shares, see scopeFor
	estimates  searchEstimates     // keyword match counts, see walkSearch
	walkForced *bool               // tests: walk (or not) whenever a keyword page could
	// labelWalkForced (tests) walks a label sort whenever its order and
	// labels allow, or never (labelsort.go).
	labelWalkForced *bool
	// filterWalkForced (tests) renders every page's row rules and
	// equality filters for the walk of the sort index, or none
	// (walksFilters).
	filterWalkForced *bool
	// viaJoinedForced (tests) tests the tenant of every PostgreSQL page
	// through its joined rows, or none (Scope.viaJoined); nil: by share.
	viaJoinedForced *bool
	// filterWalks counts the pages rendered for the walk (tests).
	filterWalks atomic.Int64
	// labelWalks counts the pages read by the label walk (tests).
	labelWalks atomic.Int64
	// lateReads counts the pages read in two steps (late.go; tests).
	lateReads  atomic.Int64
	labelCache labelCache          // attribute labels per language
	rights     *access.Cache       // computed rights per rights generation
	principals Principals          // other users' principals (readers.go)
	linkHooks  map[string]LinkHook // module rules on links, by relation API name
	// deleteHooks are told about the deletes of an entity's records (OnDelete).
	deleteHooks map[string][]DeleteHook
	// choiceRules are the modules' limits on list field choices (OnChoices).
	// by entity name, "" for every entity.
	choiceRules map[string][]ChoiceRule
	// search are the keyword search indexes by entity name (searchindex.go);
	// nil for a registry other than the migrated one, whose tables have
	// none: then every keyword is matched by scanning.
	search map[string]*searchIndex
	// counts caches totals per statement and data generation
	// (countcache.go); nil: not cached.
	counts *countCache
	// computed caches computed columns per statement, row and data
	// generation (computedcache.go); nil: not cached.
	computed *computedCache
	// refs caches values of referenced rows of few rows per statement, key
	// and data generation (refcache.go); nil: not cached.
	refs *refCache
	// probes remember the answers of labelsPresent per data generation
	// (labelsort.go); nil: every label walk probes.
	probes *labelProbes
	// maskable are the entities with masked fields (mask.go).
	maskable []*schema.Entity
	// rowRules are the modules' row rules by entity name (OnRows).
	rowRules map[string]RowRule
	// committed are told about every committed write (OnCommitted).
	committed []CommitListener
	// background holds the counts under way in the background
	// (recountLater); stopping ends with Close, and stop ends it.
	background sync.WaitGroup
	stopping   context.Context
	stop       context.CancelFunc
}

// Deps are what an Engine is built from. Registry defaults to
// schema.Default(), Now to time.Now, Rights to a cache of its own (share
// the one auth uses). Modules add their hooks afterwards (hooks.go).
type Deps struct {
	DB       *db.DB
	Catalog  *i18n.Catalog
	Log      *slog.Logger
	Registry *schema.Registry
	Now      func() time.Time
	Rights   *access.Cache
	// Principals builds other users' principals, for the reader fields
	// (readers.go); nil: a write or options call on one fails.
	Principals Principals
}

// New builds an engine and the column catalogs of every entity and
// relation.
func New(d Deps) (*Engine, error) {
	e := &Engine{db: d.DB, reg: d.Registry, texts: d.Catalog, log: d.Log, now: d.Now, hooks: map[string]Hook{},
		cats: map[string]*catalog{}, relCats: map[string]*catalog{}, rights: d.Rights, principals: d.Principals}
	e.stopping, e.stop = context.WithCancel(context.Background())
	if e.rights == nil {
		e.rights = access.NewCache(10000)
	}
	if e.reg == nil {
		e.reg = schema.Default()
	}
	if e.now == nil {
		e.now = clock.Now
	}
	if e.log == nil {
		e.log = slog.Default()
	}
	if e.reg == schema.Default() {
		e.search = searchIndexes(e.reg)
		e.counts = newCountCache(e.reg, countCacheSize)
		e.computed = newComputedCache(computedCacheRows)
		e.refs = newRefCache()
		e.probes = &labelProbes{m: map[string]labelProbe{}}
	}
	e.maskable = maskedEntities(e.reg)
	for _, ent := range e.reg.Entities() {
		e.cats[ent.Name] = entityCatalog(ent)
		for i := range ent.Relations {
			rel := &ent.Relations[i]
			c, err := relationCatalog(e.reg, ent, rel)
			if err != nil {
				return nil, err
			}
			e.relCats[rel.APIName(ent.Name)] = c
		}
	}
	for _, ent := range e.reg.LinkLists() {
		e.cats[ent.Name] = entityCatalog(ent)
	}
	return e, nil
}

// MustNew is New for program start: the definitions are validated when the
// program starts, so a failure is a build defect.
func MustNew(d Deps) *Engine {
	e, err := New(d)
	if err != nil {
		panic(fmt.Sprintf("tables: %v", err))
	}
	return e
}

// Close stops the engine's work in the background (totals counted again
// after a write, decision 0057) and waits for it; call it before the
// database closes.
func (e *Engine) Close() {
	e.stop()
	e.background.Wait()
}

// env returns the statement-building environment of one request.
func (e *Engine) env() *env {
	return &env{reg: e.reg, dialect: e.db.Dialect(), now: e.now(), search: e.search}
}

// today is the current date in UTC, "2006-01-02".
func (e *Engine) today() string { return e.now().UTC().Format("2006-01-02") }

// Registry returns the definitions the engine serves.
func (e *Engine) Registry() *schema.Registry { return e.reg }

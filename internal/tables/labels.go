package tables

import (
	"context"
	"fmt"
	"sync"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// labelTexts are the attribute_i18n texts of one language.
type labelTexts map[string]string

// LabelFunc returns the schema.LabelFunc reading the attribute_i18n table
// of lang: rows (attribute_name, attribute_lang, attribute_nice_name).
// Serve falls back to the definitions' English labels for missing rows.
func LabelFunc(ctx context.Context, q db.Querier, lang string) (schema.LabelFunc, error) {
	texts, err := loadLabels(ctx, q, lang)
	if err != nil {
		return nil, err
	}
	return texts.fn(), nil
}

func loadLabels(ctx context.Context, q db.Querier, lang string) (labelTexts, error) {
	rows, err := q.QueryContext(ctx, `SELECT attribute_name, attribute_nice_name FROM attribute_i18n WHERE attribute_lang = ?`, lang)
	if err != nil {
		return nil, fmt.Errorf("tables: read attribute labels: %w", err)
	}
	defer rows.Close()
	out := labelTexts{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("tables: scan attribute label: %w", err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("tables: read attribute labels: %w", err)
	}
	return out, nil
}

func (t labelTexts) fn() schema.LabelFunc {
	return func(key, _ string) string { return t[key] }
}

// labelTTL bounds how long a label edit that no engine saw (an operator's
// SQL) stays unseen; edits through any instance's engine clear the cache
// at once (wrote, ForgetLabels).
const labelTTL = 30 * time.Second

// labelCache keeps the attribute labels of each language: every list and
// form answer needs them, and they change only when an administrator edits
// attribute_i18n.
type labelCache struct {
	mu sync.Mutex
	m  map[string]cachedLabels
}

type cachedLabels struct {
	texts labelTexts
	until time.Time
	// served holds what is rendered from texts: the encoded attribute
	// definitions of list answers, by list target (servedAttributesJSON).
	served *sync.Map
}

// labels returns the attribute labels of lang, cached for labelTTL.
func (e *Engine) labels(ctx context.Context, lang string) (labelTexts, error) {
	c, err := e.labelEntry(ctx, lang)
	return c.texts, err
}

// labelEntry returns the cache entry of lang's labels, loading it when it
// is missing or older than labelTTL.
func (e *Engine) labelEntry(ctx context.Context, lang string) (cachedLabels, error) {
	now := e.now()
	e.labelCache.mu.Lock()
	c, ok := e.labelCache.m[lang]
	e.labelCache.mu.Unlock()
	if ok && now.Before(c.until) {
		return c, nil
	}
	texts, err := loadLabels(ctx, e.db, lang)
	if err != nil {
		return cachedLabels{}, err
	}
	c = cachedLabels{texts: texts, until: now.Add(labelTTL), served: &sync.Map{}}
	e.labelCache.mu.Lock()
	if e.labelCache.m == nil {
		e.labelCache.m = map[string]cachedLabels{}
	}
	e.labelCache.m[lang] = c
	e.labelCache.mu.Unlock()
	return c, nil
}

// LabelEntity is the entity whose rows the label cache holds. A write of
// it through this engine empties this engine's cache at once; other
// instances on the same PostgreSQL learn of it through the live events'
// LISTEN/NOTIFY (internal/events) and call ForgetLabels (decision 0033).
const LabelEntity = "attribute_i18n"

// wrote runs after a successful write of ent: an edited label is shown at
// once.
func (e *Engine) wrote(ent *schema.Entity) {
	if ent.Name == LabelEntity {
		e.ForgetLabels()
	}
}

// ForgetLabels empties the label cache: another instance changed labels.
func (e *Engine) ForgetLabels() {
	e.labelCache.mu.Lock()
	e.labelCache.m = nil
	e.labelCache.mu.Unlock()
}

// definition renders entity ent's served definition for lang.
func (e *Engine) definition(ctx context.Context, ent *schema.Entity, lang string) (schema.TableDefinition, error) {
	texts, err := e.labels(ctx, lang)
	if err != nil {
		return schema.TableDefinition{}, err
	}
	fn := texts.fn()
	def, err := e.reg.Serve(ent.Name, lang, fn)
	if err != nil {
		return schema.TableDefinition{}, fmt.Errorf("tables: %w", err)
	}
	for i := range def.Relations {
		if access.GovernedTab(def.Relations[i].API) {
			def.Relations[i].Subject = def.Relations[i].API
		}
	}
	c, err := e.callerOf(ctx)
	if err != nil {
		return schema.TableDefinition{}, err
	}
	if err := e.lockFields(c, ent, def.Attributes); err != nil {
		return schema.TableDefinition{}, err
	}
	return def, nil
}

// lockFields marks the fields the server pre-fills and locks for the
// caller (Engine.lockedValue: an external user's customer group, partner group or
// only team) as read-only with that value as default, so the form shows
// what the server will store.
func (e *Engine) lockFields(c *caller, ent *schema.Entity, attrs []schema.AttributeDefinition) error {
	for i := range attrs {
		f, ok := ent.Field(attrs[i].Attribute)
		if !ok {
			continue
		}
		v, ok, err := e.lockedValue(c, ent, f)
		if err != nil {
			return err
		}
		if ok {
			attrs[i].Default = schema.Int(v)
			attrs[i].ReadOnly = true
		}
	}
	return nil
}

// fieldLabels maps every attribute of a served definition (and of its
// relations' link attributes) to its translated label, for messages.
func fieldLabels(def schema.TableDefinition) map[string]string {
	out := make(map[string]string, len(def.Attributes))
	for _, r := range def.Relations {
		for _, a := range r.Attributes {
			out[a.Attribute] = a.AttributeI18n
		}
	}
	for _, a := range def.Attributes {
		out[a.Attribute] = a.AttributeI18n
	}
	return out
}

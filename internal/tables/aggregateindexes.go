package tables

import (
	"slices"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// aggregateIndex is one index that answers the computed fields of a big
// entity over one relation (source.aggregate) from its entries alone.
type aggregateIndex struct {
	table   string
	columns []string
}

func (x aggregateIndex) name() string { return x.table + "_" + x.columns[0] + "_aggregate" }

// aggregateIndexes lists the indexes of the computed sums, minimums, next
// dates, lists and counts of the big entities: a page of 50 contracts
// computes three of them per row, each a look-up by the owner's key.
// For a has-many relation the index leads with the foreign key, then the
// field of the aggregate's Only match (equality), then the aggregated
// field, so a next date is the first entry after today. For a many-to-many
// relation it is the link's owner column, the far end's column (the
// statement joins the far row for its tenant test) and the aggregated link
// attributes. Aggregates of one relation share one index; an index that
// would hold the foreign key alone (a count) is left to the key's own index,
// as is a link whose key is the pair and that aggregates nothing of its own.
func aggregateIndexes(reg *schema.Registry) []aggregateIndex {
	var out []aggregateIndex
	add := func(table string, cols ...string) {
		for i := range out {
			if out[i].table == table && out[i].columns[0] == cols[0] {
				for _, c := range cols[1:] {
					if !slices.Contains(out[i].columns, c) {
						out[i].columns = append(out[i].columns, c)
					}
				}
				return
			}
		}
		out = append(out, aggregateIndex{table: table, columns: cols})
	}
	for _, e := range bigEntitiesOf(reg) {
		for i := range e.Fields {
			d := e.Fields[i].Derived
			if d == nil || d.Relation == "" {
				continue
			}
			rel, ok := e.Relation(d.Relation)
			if !ok {
				continue
			}
			if table, cols := aggregateColumns(reg, e, rel, d); len(cols) > 1 {
				add(table, cols...)
			}
		}
	}
	return out
}

// aggregateColumns returns the table and columns of the index that serves
// derivation d of owner over rel (see aggregateIndexes); no columns when
// rel is neither a one-step has-many nor a many-to-many.
func aggregateColumns(reg *schema.Registry, owner *schema.Entity, rel *schema.Relation, d *schema.Derivation) (string, []string) {
	switch {
	case rel.Kind == schema.HasMany && len(rel.Via) == 1:
		target, ok := reg.Entity(rel.Target)
		if !ok {
			return "", nil
		}
		cols := []string{rel.Via[0]}
		if d.Only != nil {
			cols = append(cols, d.Only.Field)
		}
		if d.Field != "" && d.Func != schema.DeriveCount {
			cols = append(cols, d.Field)
		}
		return target.Table, cols
	case rel.Kind == schema.ManyToMany:
		lk, ok := reg.Link(rel.Link)
		if !ok {
			return "", nil
		}
		own, other, _ := lk.End(owner.Name)
		cols := []string{own.Column, other.Column}
		_, isAttr := lk.Attr(d.Field)
		if isAttr && d.Func != schema.DeriveCount {
			cols = append(cols, d.Field)
		}
		if lk.ID == "" && own == lk.Left && len(cols) == 2 {
			return "", nil // the pair key leads with the owner column already
		}
		return lk.Table, cols
	}
	return "", nil
}

// foreignKeyIndexByHand names the hand-made one-column indexes of foreign
// keys (migration 0004) that an aggregate index leading with the same
// column replaces: it serves every look-up by that key, and a write keeps
// one index fewer. A big entity's own foreign-key index stays: on SQLite it
// ends in the key and so gives a list sorted by that reference its order
// (TestEverySortHasAKeyedIndex), which the aggregate index does not.
var foreignKeyIndexByHand = map[string]string{
	"contract_area.contract_id": "contract_area_contract_idx",
}

// AggregateIndexMigration renders migration 0046 from the definitions
// (issue 19): the indexes of aggregateIndexes on both databases, each
// replacing the hand-made index of its leading foreign key.
// TestAggregateIndexMigrationIsCurrent keeps the file equal to it.
func AggregateIndexMigration(reg *schema.Registry) string {
	b, w := generatedMigration("AggregateIndexMigration",
		"The computed fields of the big entities read one index per relation (decision 0043).")
	q := db.QuoteIdent
	for _, x := range aggregateIndexes(reg) {
		quoted := make([]string, len(x.columns))
		for i, c := range x.columns {
			quoted[i] = q(c)
		}
		if old, ok := foreignKeyIndexByHand[x.table+"."+x.columns[0]]; ok {
			w("DROP INDEX %s;", q(old))
		}
		w("CREATE INDEX %s ON %s (%s);", q(x.name()), q(x.table), strings.Join(quoted, ", "))
	}
	return b.String()
}

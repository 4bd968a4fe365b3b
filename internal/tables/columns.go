package tables

import (
	"fmt"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// LabelSuffix ends the name of the column holding a foreign key's label:
// company_id__label is the default label of the company company_id names.
const LabelSuffix = "__label"

// colKind says where a column's value comes from.
type colKind uint8

const (
	kindField        colKind = iota // a stored field of the row (or of the link row)
	kindLabel                       // the label of a foreign key
	kindDerived                     // a value computed when reading
	kindLinkKey                     // a key column of the link row of a relation read
	kindVersion                     // row_version
	kindThrough                     // the ids of a field stored through a relation (through.go)
	kindThroughLabel                // their labels
)

// colSpec is one column a statement may select, filter, sort or search on,
// resolved from the definitions. Requests name columns; only names found
// in a catalog ever reach SQL, and then as the definitions spell them.
type colSpec struct {
	name  string
	typ   schema.DataType
	kind  colKind
	field *schema.Field // the field, the foreign key of a label, the derived field
	// onLink reads the value from the link row of a relation read.
	onLink bool
}

// sortable columns may be ordered by; filterable ones filtered on.
func (c *colSpec) sortable() bool {
	return c.kind == kindField || c.kind == kindLabel || c.kind == kindLinkKey
}

// filterable columns are the sortable ones and a derived deadline status
// (its CASE reads only the row's own columns; the dashboards link to the
// tickets of one status).
func (c *colSpec) filterable() bool {
	return c.sortable() || c.kind == kindDerived && c.field.Derived.Func == schema.DeriveDeadlineStatus
}

// searchable columns take part in the keyword search (filter_all): the
// Searchable text fields and every label.
func (c *colSpec) searchable() bool {
	return c.kind == kindLabel || (c.kind == kindField && c.field.Searchable && c.typ == schema.TypeString)
}

// text reports whether the column holds text (exports escape formulas).
func (c *colSpec) text() bool { return c.typ == schema.TypeString }

// expr renders the column's value in s.
func (c *colSpec) expr(s *source) (frag, error) {
	a := s.alias
	if c.onLink {
		a = s.link.alias
	}
	switch c.kind {
	case kindField:
		if !c.onLink && s.hidesField(s.base, c.field) {
			return frag{sql: maskExpr(col(a, c.name), c.field.MaxLen)}, nil
		}
		return frag{sql: col(a, c.name)}, nil
	case kindLinkKey:
		return frag{sql: col(a, c.name)}, nil
	case kindVersion:
		return frag{sql: col(a, schema.RowVersionColumn)}, nil
	case kindLabel:
		e, err := s.labelExpr(a, c.field, 0)
		return frag{sql: e}, err
	case kindDerived:
		return s.derivedExpr(a, s.base, c.field)
	case kindThrough:
		return s.throughIDsExpr(c.field)
	case kindThroughLabel:
		return s.throughLabelsExpr(c.field)
	}
	return frag{}, fmt.Errorf("tables: column %s has unknown kind", c.name)
}

// selectExpr renders the column for a select list: stored dates and
// date-times are read as text (see db.PlainTemporal).
func (c *colSpec) selectExpr(s *source) (frag, error) {
	f, err := c.expr(s)
	if err == nil && c.kind == kindField && (c.typ == schema.TypeDate || c.typ == schema.TypeDateTime) {
		f.sql = db.PlainTemporal(s.env.dialect, f.sql)
	}
	return f, err
}

// catalog lists the columns of an entity or of a relation's rows in
// answer order. It is built once per entity and relation and shared.
type catalog struct {
	specs  []colSpec
	byName map[string]int
}

func (c *catalog) add(s colSpec) {
	if i, ok := c.byName[s.name]; ok {
		c.specs[i] = s // a link attribute wins over the target's field
		return
	}
	c.byName[s.name] = len(c.specs)
	c.specs = append(c.specs, s)
}

// lookup finds a column by name.
func (c *catalog) lookup(name string) (*colSpec, bool) {
	i, ok := c.byName[name]
	if !ok {
		return nil, false
	}
	return &c.specs[i], true
}

// readable reports whether the generic API serves field f: internal module
// columns and write-only values (passwords) are never read, listed,
// filtered, sorted or searched.
func readable(f *schema.Field) bool { return !f.Internal && !f.WriteOnly }

// addField adds a field's column (and its label when it is a reference).
func (c *catalog) addField(f *schema.Field, onLink bool) {
	switch {
	case !readable(f):
	case f.Through != "":
		if !onLink {
			c.add(colSpec{name: f.Name, typ: schema.TypeID, kind: kindThrough, field: f})
			c.add(colSpec{name: f.Name + LabelSuffix, typ: schema.TypeString, kind: kindThroughLabel, field: f})
		}
	case f.Stored():
		c.add(colSpec{name: f.Name, typ: f.Type, kind: kindField, field: f, onLink: onLink})
		if f.Ref != "" {
			c.add(colSpec{name: f.Name + LabelSuffix, typ: schema.TypeString, kind: kindLabel, field: f, onLink: onLink})
		}
	case f.Derived != nil:
		c.add(colSpec{name: f.Name, typ: f.Type, kind: kindDerived, field: f})
	}
}

// entityCatalog lists the columns of e's rows: its readable stored fields
// with their labels, its computed fields, and row_version (link rows,
// listed across owners, have none).
func entityCatalog(e *schema.Entity) *catalog {
	c := &catalog{byName: map[string]int{}}
	for i := range e.Fields {
		c.addField(&e.Fields[i], false)
	}
	if e.Listed == nil {
		c.add(colSpec{name: schema.RowVersionColumn, typ: schema.TypeInt, kind: kindVersion})
	}
	return c
}

// relationCatalog lists the columns of relation rows: the target's columns
// and, for a many-to-many relation, the link's key and attributes (an
// attribute that names the same reference as a target field replaces it).
func relationCatalog(reg *schema.Registry, owner *schema.Entity, rel *schema.Relation) (*catalog, error) {
	target, ok := reg.Entity(rel.Target)
	if !ok {
		return nil, fmt.Errorf("tables: relation %s targets unknown entity %s", rel.Name, rel.Target)
	}
	c := entityCatalog(target)
	if rel.Kind != schema.ManyToMany {
		return c, nil
	}
	l, ok := reg.Link(rel.Link)
	if !ok {
		return nil, fmt.Errorf("tables: relation %s uses unknown link %s", rel.Name, rel.Link)
	}
	own, _, _ := l.End(owner.Name)
	if l.ID != "" {
		c.add(colSpec{name: l.ID, typ: schema.TypeID, kind: kindLinkKey, onLink: true})
	}
	c.add(colSpec{name: own.Column, typ: schema.TypeID, kind: kindLinkKey, onLink: true})
	for i := range l.Attrs {
		c.addField(&l.Attrs[i], true)
	}
	return c, nil
}

// through reports whether the column is a field stored through a relation
// or its labels: lists of values, encoded by through.go.
func (c *colSpec) through() bool { return c.kind == kindThrough || c.kind == kindThroughLabel }

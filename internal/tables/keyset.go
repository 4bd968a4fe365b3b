package tables

import (
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Keyset paging (issue 19, decision 0031). A page sorted by a stored field
// of the listed rows answers, with has_more, an opaque "next" token: the
// sort value and key of its last row and the position after it. A request
// with that token as "after" reads the rows that come after that row in
// the same order — an index range instead of an offset that reads and
// drops every row before the page. The token only narrows the request:
// the caller's tenant scope, rights and filter apply as to any page, so a
// token made by (or for) somebody else shows nothing outside the caller's
// rows. Page numbers (current_page, from) stay for jumps.

// keysetParam keeps a number of the token a statement parameter on
// both databases, where db.InlineInts writes integers into the page statement:
// a key differs on every page, and each distinct text would be one more
// prepared statement per connection (decision 0022).
type keysetParam int64

// Value implements driver.Valuer.
func (k keysetParam) Value() (driver.Value, error) { return int64(k), nil }

// param wraps integer values (keysetParam); others are left as they are.
func param(v any) any {
	if n, ok := v.(int64); ok {
		return keysetParam(n)
	}
	return v
}

// keysetToken is the decoded "after" token.
type keysetToken struct {
	// Target and Order name the list and its sort column, Desc its
	// direction; a token is refused for another list or order.
	Target string `json:"t"`
	Order  string `json:"o"`
	Desc   bool   `json:"d,omitempty"`
	// Value is the sort value of the last row (nil: NULL), Key its key.
	Value *string `json:"v"`
	Key   int64   `json:"k"`
	// Pos is the number of rows before the next page (its "from" - 1).
	Pos int `json:"p"`
}

// keysetable reports whether the plan's order allows keyset paging: a
// stored field of the listed rows (not a label, not a link attribute, not
// masked for the caller, not a date-time whose text form may drop the
// fraction of a second).
func (p *listPlan) keysetable(s *source) bool {
	o := p.order
	if o == nil || o.kind != kindField || o.onLink || o.field == nil || p.t.link != nil {
		return false
	}
	if o.typ == schema.TypeDateTime || s.hidesField(s.base, o.field) {
		return false
	}
	return true
}

func (p *listPlan) targetName() string {
	if p.t.owner != nil && p.t.rel != nil {
		return p.t.rel.APIName(p.t.owner.Name)
	}
	return p.t.ent.Name
}

func errBadAfter() error {
	return apperr.Validation(apperr.FieldError{Field: "after", Key: "server.tables.bad_after", Type: "value",
		Args: map[string]string{"field": "after"}})
}

// encodeAfter renders the token of the row after which the next page starts.
func encodeAfter(k keysetToken) string {
	b, _ := json.Marshal(k)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeAfter reads and checks an "after" token against the plan: its list,
// order and direction, and its value against the sort column's type.
func (p *listPlan) decodeAfter(raw string) (*keysetToken, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(raw))
	if err != nil || len(b) > 4096 {
		return nil, errBadAfter()
	}
	var k keysetToken
	if err := json.Unmarshal(b, &k); err != nil || k.Key <= 0 || k.Pos < 0 {
		return nil, errBadAfter()
	}
	if k.Target != p.targetName() || k.Order != p.order.name || k.Desc != p.desc {
		return nil, errBadAfter()
	}
	if k.Value != nil {
		if _, err := keysetArg(p.order.typ, *k.Value); err != nil {
			return nil, errBadAfter()
		}
	}
	return &k, nil
}

// keysetArg converts a sort value as read (text) to the column's type.
func keysetArg(t schema.DataType, v string) (any, error) {
	switch t {
	case schema.TypeString:
		return v, nil
	case schema.TypeDate:
		if len(v) > 10 {
			v = v[:10] // PostgreSQL reads a date as a time at midnight
		}
	}
	return coerceFilterValue(t, v)
}

// neverNull reports whether the field's column is NOT NULL: the agreement
// of migrations and definitions (internal/schema) demands it for yes/no
// fields and for fields always required and always shown that the user
// writes.
func neverNull(f *schema.Field) bool {
	if f == nil || f.Internal || f.ReadOnly || f.Derived != nil {
		return false
	}
	return f.Type == schema.TypeBool || (f.Required.Always() && f.ShowWhen == nil)
}

// afterCond renders "the row comes after the token's row" in the plan's
// order (sort column, then key, both in the same direction). NULLs sort
// first in SQLite's ascending order and last in PostgreSQL's, the other
// way round when descending.
func (p *listPlan) afterCond(s *source, k *keysetToken) (frag, error) {
	o, err := p.sortExpr(s)
	if err != nil {
		return frag{}, err
	}
	cmp := " > "
	if p.desc {
		cmp = " < "
	}
	nullsFirst := (s.env.dialect == db.SQLite) != p.desc
	key := col(s.alias, p.t.ent.PK)
	if p.order.name == p.t.ent.PK {
		return frag{sql: key + cmp + "?", args: []any{param(k.Key)}}, nil
	}
	if k.Value == nil {
		// Among the NULLs: the later keys, then (NULLs first) every value.
		c := frag{sql: o.sql + " IS NULL AND " + key + cmp + "?", args: append(append([]any{}, o.args...), param(k.Key))}
		if nullsFirst {
			c = frag{sql: "(" + c.sql + ") OR " + o.sql + " IS NOT NULL", args: append(c.args, o.args...)}
		}
		return c, nil
	}
	v, err := keysetArg(p.order.typ, *k.Value)
	if err != nil {
		return frag{}, errBadAfter()
	}
	// A row value comparison walks the (column, key) index from the token's
	// row on; NULL never compares, so NULLs are added when they come last
	// (and the column may hold them: an OR keeps PostgreSQL from the range).
	args := append(append([]any{}, o.args...), param(v), param(k.Key))
	c := frag{sql: "(" + o.sql + ", " + key + ")" + cmp + "(?, ?)", args: args}
	if !nullsFirst && !neverNull(p.order.field) {
		c = frag{sql: c.sql + " OR " + o.sql + " IS NULL", args: append(c.args, o.args...)}
	}
	return c, nil
}

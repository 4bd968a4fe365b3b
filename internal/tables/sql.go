package tables

import (
	"strconv"
	"strings"

	"portfolio/internal/db"
)

// frag is a piece of SQL with its parameters. The text is built from code
// and from the definitions only (identifiers are quoted with db.QuoteIdent,
// aliases are generated); request data travel as args.
type frag struct {
	sql  string
	args []any
}

func (f frag) empty() bool { return f.sql == "" }

// sqlb assembles frags in order, keeping text and arguments in step.
type sqlb struct {
	b    strings.Builder
	args []any
}

func (s *sqlb) add(text string, args ...any) *sqlb {
	s.b.WriteString(text)
	s.args = append(s.args, args...)
	return s
}

func (s *sqlb) frag(f frag) *sqlb { return s.add(f.sql, f.args...) }

func (s *sqlb) done() frag { return frag{sql: s.b.String(), args: s.args} }

// join combines frags with sep.
func join(parts []frag, sep string) frag {
	var s sqlb
	for i, p := range parts {
		if i > 0 {
			s.add(sep)
		}
		s.frag(p)
	}
	return s.done()
}

// and combines non-empty conditions; the empty frag when none.
func and(conds ...frag) frag {
	var kept []frag
	for _, c := range conds {
		if !c.empty() {
			kept = append(kept, frag{sql: "(" + c.sql + ")", args: c.args})
		}
	}
	return join(kept, " AND ")
}

// or combines conditions; false when there are none.
func or(conds []frag) frag {
	if len(conds) == 0 {
		return frag{sql: "1 = 0"}
	}
	parts := make([]frag, len(conds))
	for i, c := range conds {
		parts[i] = frag{sql: "(" + c.sql + ")", args: c.args}
	}
	return join(parts, " OR ")
}

// col renders alias."name".
func col(alias, name string) string { return alias + "." + db.QuoteIdent(name) }

// ident quotes a table or column name from the definitions.
func ident(name string) string { return db.QuoteIdent(name) }

// aliases hands out the table aliases of one statement (t, j1, s1, ...);
// they are generated, never taken from a request.
type aliases struct{ n int }

func (a *aliases) next(prefix string) string {
	a.n++
	return prefix + strconv.Itoa(a.n)
}

// placeholders renders "?, ?, ?" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

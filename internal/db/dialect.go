package db

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The helpers below render the few expressions whose SQL differs between
// the dialects, or whose escaping is easy to get wrong, so generated
// queries (the table engine) stay dialect-neutral outside this package.
// Every expression argument is SQL built from definitions, never request
// data; values always travel as parameters.

// LikeEscape is the escape character of LikePattern patterns.
const LikeEscape = `\`

// TextMatch renders a case-insensitive match of expr against term: does
// the text of expr contain term (or, with prefix, start with it)? It
// returns the SQL, with one "?", and its parameter.
//
// PostgreSQL: LOWER(expr) LIKE ? ESCAPE '\' (LOWER folds every letter).
// SQLite, whose LIKE and LOWER fold ASCII letters only: an ASCII term is
// found with LIKE (C, and unlike instr(LOWER(...)) without a copy of every
// text it tests) and any other term with pf_match, a function of this
// package (sqlite_functions.go) that folds Unicode letters as PostgreSQL
// does. A LIKE against a parameter no longer makes SQLite plan the
// statement again for every term: its connections plan with the
// stability guarantee (sqlite_plans.go).
func TextMatch(d Dialect, expr, term string, prefix bool) (string, any) {
	if d != SQLite {
		return "LOWER(" + expr + ") LIKE ? ESCAPE '" + LikeEscape + "'", LikePattern(term, prefix)
	}
	folded := FoldText(term)
	if isASCII(folded) {
		return expr + " LIKE ? ESCAPE '" + LikeEscape + "'", likeFolded(folded, prefix)
	}
	if prefix {
		return "pf_match(" + expr + ", ?, 1)", folded
	}
	return "pf_match(" + expr + ", ?, 0)", folded
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FoldText is the folding of text search: Unicode normalization form C,
// then Unicode lower case, so a decomposed "Su\u0308d" and "SÜD" both
// fold to "süd". PostgreSQL folds with lower(normalize(x, NFC))
// (FoldExpr), SQLite with pf_fold and pf_match (sqlite_functions.go).
func FoldText(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// FoldExpr renders FoldText of a text expression in SQL: the expression
// the keyword search indexes are built on (migration 0013).
func FoldExpr(d Dialect, expr string) string {
	if d == SQLite {
		return "pf_fold(" + expr + ")"
	}
	return "lower(normalize(" + expr + ", NFC))"
}

// MinIndexedTerm is the shortest folded keyword (in characters) the
// search indexes answer: trigram indexes need three characters; shorter
// keywords are found by SearchMatch.
const MinIndexedTerm = 3

// SearchMatch renders the unindexed keyword match of expr: does
// FoldText(expr) contain FoldText(term)? It returns the SQL, with one
// "?", and its parameter. SQLite: pf_match (which brings the text to NFC
// when it is not); PostgreSQL: FoldExpr(expr) LIKE ?. It is what the
// search indexes answer faster and must agree with (TestSearchIndexAgrees).
func SearchMatch(d Dialect, expr, term string) (string, any) {
	folded := FoldText(term)
	if d == SQLite {
		return "pf_match(" + expr + ", ?, 0)", folded
	}
	return FoldExpr(d, expr) + " LIKE ? ESCAPE '" + LikeEscape + "'", likeFolded(folded, false)
}

// IndexedTerm reports whether the folded term is long enough for the
// search indexes.
func IndexedTerm(term string) bool { return utf8.RuneCountInString(FoldText(term)) >= MinIndexedTerm }

// FTSQuery is the FTS5 query finding term as a substring of any of the
// columns of a trigram index holding folded text (SQLite): the folded
// term as one quoted phrase, limited to the columns; no columns: any
// column of the index.
func FTSQuery(columns []string, term string) string {
	var b strings.Builder
	if len(columns) > 0 {
		b.WriteByte('{')
		for i, c := range columns {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(QuoteIdent(c))
		}
		b.WriteString("} : ")
	}
	b.WriteString("\"")
	b.WriteString(strings.ReplaceAll(FoldText(term), `"`, `""`))
	b.WriteByte('"')
	return b.String()
}

// SearchLike renders the indexed keyword match of a folded expression on
// PostgreSQL: FoldExpr(expr) LIKE ?, served by a pg_trgm GIN index on the
// same expression.
func SearchLike(expr, term string) (string, any) {
	return FoldExpr(Postgres, expr) + " LIKE ? ESCAPE '" + LikeEscape + "'", likeFolded(FoldText(term), false)
}

// FoldedLike renders the keyword match of an expression that holds
// folded text already (a stored search column on PostgreSQL): expr LIKE ?
// with the folded term, served by a pg_trgm index on expr.
func FoldedLike(expr, term string) (string, any) {
	return expr + " LIKE ? ESCAPE '" + LikeEscape + "'", likeFolded(FoldText(term), false)
}

// LikePattern lowers s and escapes the LIKE wildcards % and _ (and the
// escape character) so s matches literally: "%s%" for a contains match,
// "s%" for a prefix match.
func LikePattern(s string, prefix bool) string { return likeFolded(strings.ToLower(s), prefix) }

// likeFolded escapes the already folded s as LikePattern does.
func likeFolded(s string, prefix bool) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	if !prefix {
		b.WriteByte('%')
	}
	for _, r := range s {
		if r == '%' || r == '_' || r == '\\' {
			b.WriteString(LikeEscape)
		}
		b.WriteRune(r)
	}
	b.WriteByte('%')
	return b.String()
}

// JoinText renders the space-separated text of exprs, skipping NULLs, and
// NULL when nothing is left (concat_ws inside NULLIF). SQLite has
// concat_ws since 3.44 (the bundled modernc build is newer).
func JoinText(exprs []string) string {
	return "NULLIF(concat_ws(' ', " + strings.Join(exprs, ", ") + "), '')"
}

// JoinTextColumns renders the value of JoinText for text expressions only,
// in a form PostgreSQL accepts in an index (concat_ws is not immutable
// there, || on text is): a || ' ' || b where both are set, else the one
// that is, nested for more. A label sort index holds this expression, and
// the lists order by it (decision 0044).
func JoinTextColumns(exprs []string) string {
	return "NULLIF(" + joinSet(exprs) + ", '')"
}

// DateText renders a stored date as its text YYYY-MM-DD inside a label on
// both databases. SQLite stores that text. PostgreSQL's own date text
// depends on the DateStyle setting, so it may not be indexed; this form,
// built from the date's parts, may.
func DateText(d Dialect, expr string) string {
	if d != Postgres {
		return expr
	}
	part := func(field string, width int) string {
		return "lpad(CAST(CAST(EXTRACT(" + field + " FROM " + expr + ") AS INTEGER) AS TEXT), " + strconv.Itoa(width) + ", '0')"
	}
	return part("YEAR", 4) + " || '-' || " + part("MONTH", 2) + " || '-' || " + part("DAY", 2)
}

func joinSet(exprs []string) string {
	if len(exprs) == 1 {
		return exprs[0]
	}
	rest := joinSet(exprs[1:])
	return "COALESCE(" + exprs[0] + " || ' ' || " + rest + ", " + exprs[0] + ", " + rest + ")"
}

// DecimalText renders a NUMERIC expression for display inside text: without
// trailing zeros on PostgreSQL (19.5000 → 19.5); SQLite keeps numbers as
// integers or reals already.
func DecimalText(d Dialect, expr string) string {
	if d == Postgres {
		return "trim_scale(" + expr + ")"
	}
	return expr
}

// StringAgg renders the aggregate joining the text of expr with ", ".
func StringAgg(d Dialect, expr string) string {
	if d == Postgres {
		return "string_agg(CAST(" + expr + " AS TEXT), ', ')"
	}
	return "group_concat(" + expr + ", ', ')"
}

// ListSep separates the items ListAgg joins: the unit separator, which
// no label or number contains, so the list can be split again.
const ListSep = "\x1f"

// ListAgg renders the aggregate joining the text of expr with ListSep, in
// the order the rows come (aggregate an ordered subquery).
func ListAgg(d Dialect, expr string) string {
	if d == Postgres {
		return "string_agg(CAST(" + expr + " AS TEXT), chr(31))"
	}
	return "group_concat(" + expr + ", char(31))"
}

// PlainTemporal renders a DATE or TIMESTAMP column for reading as its
// stored text on SQLite, where the driver would otherwise parse every
// value into a time.Time (trying several layouts) only for the caller to
// format it again; PostgreSQL returns the column unchanged. Use it in
// select lists only: wrapped columns cannot use indexes.
func PlainTemporal(d Dialect, expr string) string {
	if d == SQLite {
		return "(" + expr + " || '')"
	}
	return expr
}

// InKeys renders "expr is one of a list of keys" with the whole list as one
// argument (KeysArg), so that a statement keeps one text, and one prepared
// plan, for any number of keys.
func InKeys(d Dialect, expr string) string {
	if d == Postgres {
		return expr + " = ANY(CAST(CAST(? AS TEXT) AS BIGINT[]))"
	}
	return expr + " IN (SELECT value FROM json_each(?))"
}

// KeysArg is the argument of InKeys for keys.
func KeysArg(d Dialect, keys []int64) string {
	open, close := byte('['), byte(']')
	if d == Postgres {
		open, close = '{', '}'
	}
	b := []byte{open}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, k, 10)
	}
	return string(append(b, close))
}

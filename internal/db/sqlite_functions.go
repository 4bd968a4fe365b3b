package db

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// sqliteDriver is the SQLite driver with this package's SQL functions
// (pf_match). It is built once and never changed afterwards; a driver of
// our own, rather than functions registered on the package-wide "sqlite"
// driver, keeps them out of every other user of that driver.
var sqliteDriver = sync.OnceValue(func() *sqlite.Driver {
	d := &sqlite.Driver{}
	d.MustRegisterDeterministicScalarFunction("pf_match", 3, pfMatch)
	return d
})

// pfMatch(text, term, prefix) is 1 when text, folded by FoldText,
// contains term (with prefix = 1: starts with term), else 0; NULL text
// matches nothing. term comes folded (TextMatch). Numbers match by
// their text, as LIKE does.
func pfMatch(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	var text string
	switch v := args[0].(type) {
	case nil:
		return int64(0), nil
	case string:
		text = v
	case []byte:
		text = string(v)
	case int64:
		text = strconv.FormatInt(v, 10)
	case float64:
		text = strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return nil, fmt.Errorf("pf_match: unexpected value %T", v)
	}
	term, ok := args[1].(string)
	if !ok {
		return nil, fmt.Errorf("pf_match: the term is %T, not text", args[1])
	}
	prefix, _ := args[2].(int64)
	if containsFolded(text, term, prefix == 1) {
		return int64(1), nil
	}
	return int64(0), nil
}

// containsFolded reports whether text, folded rune by rune, contains the
// folded term (with prefix: starts with it), without building the folded
// text: the function runs once per row of a scan.
func containsFolded(text, term string, prefix bool) bool {
	if prefix {
		return hasFoldedPrefix(text, term)
	}
	for i := 0; i < len(text); {
		if hasFoldedPrefix(text[i:], term) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return term == ""
}

func hasFoldedPrefix(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		r, n := utf8.DecodeRuneInString(s)
		p, m := utf8.DecodeRuneInString(prefix)
		if unicode.ToLower(r) != p {
			return false
		}
		s, prefix = s[n:], prefix[m:]
	}
	return true
}

// sqliteConnector opens connections of sqliteDriver for sql.OpenDB.
type sqliteConnector struct{ dsn string }

func (c sqliteConnector) Connect(context.Context) (driver.Conn, error) {
	return sqliteDriver().Open(c.dsn)
}

func (c sqliteConnector) Driver() driver.Driver { return sqliteDriver() }

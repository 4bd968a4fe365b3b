package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"modernc.org/sqlite"
)

// sqliteDriver is the SQLite driver with this package's SQL functions
// (pf_match, pf_fold). It is built once and never changed afterwards; a driver of
// our own, rather than functions registered on the package-wide "sqlite"
// driver, keeps them out of every other user of that driver.
var sqliteDriver = sync.OnceValue(func() *sqlite.Driver {
	d := &sqlite.Driver{}
	d.MustRegisterDeterministicScalarFunction("pf_match", 3, pfMatch)
	d.MustRegisterDeterministicScalarFunction("pf_fold", 1, pfFold)
	return d
})

// sqlText is the text of a value SQLite hands a function (numbers by
// their text, as LIKE sees them); ok is false for NULL.
func sqlText(name string, v driver.Value) (text string, ok bool, err error) {
	switch v := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	case []byte:
		return string(v), true, nil
	case int64:
		return strconv.FormatInt(v, 10), true, nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true, nil
	}
	return "", false, fmt.Errorf("%s: unexpected value %T", name, v)
}

// pfMatch(text, term, prefix) is 1 when text, folded by FoldText,
// contains term (with prefix = 1: starts with term), else 0; NULL text
// matches nothing. term comes folded (TextMatch, SearchMatch). Numbers
// match by their text, as LIKE does.
func pfMatch(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text, ok, err := sqlText("pf_match", args[0])
	if err != nil || !ok {
		return int64(0), err
	}
	term, ok := args[1].(string)
	if !ok {
		return nil, fmt.Errorf("pf_match: the term is %T, not text", args[1])
	}
	prefix, _ := args[2].(int64)
	if MatchFolded(text, term, prefix == 1) {
		return int64(1), nil
	}
	return int64(0), nil
}

// pfFold(text) is FoldText(text), NULL for NULL: the folded text the
// keyword search indexes hold (migration 0013 fills them by trigger).
func pfFold(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	text, ok, err := sqlText("pf_fold", args[0])
	if err != nil || !ok {
		return nil, err
	}
	return FoldText(text), nil
}

// MatchFolded reports whether FoldText(text) contains the folded term
// (with prefix: starts with it). Text already in Unicode normalization
// form C (nearly all) is folded rune by rune without a copy: the function
// runs once per row of a scan.
func MatchFolded(text, term string, prefix bool) bool {
	if !norm.NFC.IsNormalString(text) {
		text = norm.NFC.String(text)
	}
	return containsFolded(text, term, prefix)
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
	conn, err := sqliteDriver().Open(c.dsn)
	if err != nil {
		return nil, err
	}
	if err := stablePlans(conn); err != nil {
		return nil, errors.Join(err, conn.Close())
	}
	if err := dropConnectionMutex(conn); err != nil {
		return nil, errors.Join(err, conn.Close())
	}
	return conn, nil
}

func (c sqliteConnector) Driver() driver.Driver { return sqliteDriver() }

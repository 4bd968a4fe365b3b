package db

import (
	"database/sql/driver"
	"fmt"
	"reflect"
	"runtime"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Why every SQLite connection turns on the query planner stability
// guarantee (SQLITE_DBCONFIG_ENABLE_QPSG, decision 0041): without it SQLite
// may plan a statement for the values bound to it, and it then marks the
// prepared statement to be planned again whenever such a value changes.
// Our own statements avoid that (no LIKE with a parameter, the session
// lookup compares with "(SELECT ?)"), but FTS5 reads a term's pages through
// a statement of its own ("SELECT pgno FROM <fts>_idx WHERE segid=? AND
// term<=? ...") that SQLite 3.54 re-parses at every bind even without
// STAT4 samples: half the time of a keyword lookup (70 → 38 µs for one
// label's text index, measured with the driver patched to set the flag).
// With the guarantee SQLite plans each statement once, from the
// statistics and literals alone, which is what a cached statement wants.

// sqliteEnableQPSG and sqliteQueryQPSG are the onoff arguments of
// sqlite3_db_config: 1 sets the flag, -1 only reads it.
const (
	sqliteEnableQPSG = 1
	sqliteQueryQPSG  = -1
)

// stablePlans turns the guarantee on for the connection c of sqliteDriver.
func stablePlans(c driver.Conn) error {
	on, err := planStability(c, sqliteEnableQPSG)
	if err != nil {
		return err
	}
	if !on {
		return fmt.Errorf("db: SQLite refused the query planner stability guarantee")
	}
	return nil
}

// planStability calls sqlite3_db_config(SQLITE_DBCONFIG_ENABLE_QPSG,
// onoff, &res) on c and reports res.
func planStability(c driver.Conn, onoff int32) (bool, error) {
	handle, err := sqliteHandle(c)
	if err != nil {
		return false, err
	}
	tls := libc.NewTLS()
	defer tls.Close()
	// libc.VaList packs each argument into an 8-byte slot.
	args := libc.Xmalloc(tls, 2*8)
	if args == 0 {
		return false, fmt.Errorf("db: sqlite3_db_config: out of memory")
	}
	defer libc.Xfree(tls, args)
	res := new(int32)
	var pin runtime.Pinner
	pin.Pin(res)
	defer pin.Unpin()
	rc := sqlite3.Xsqlite3_db_config(tls, handle, sqlite3.SQLITE_DBCONFIG_ENABLE_QPSG,
		libc.VaList(args, onoff, uintptr(unsafe.Pointer(res))))
	if rc != sqlite3.SQLITE_OK {
		return false, fmt.Errorf("db: sqlite3_db_config(ENABLE_QPSG) returned %d", rc)
	}
	return *res == 1, nil
}

// sqliteHandle reads the sqlite3* of a connection of sqliteDriver. The
// driver keeps it unexported and offers no call for what we need it for,
// so it is read by reflection: a driver whose connection has no "db" handle
// fails here, at the first connection, not silently.
func sqliteHandle(c driver.Conn) (uintptr, error) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0, fmt.Errorf("db: a SQLite connection of type %T has no database handle", c)
	}
	handle := v.Elem().FieldByName("db")
	if !handle.IsValid() || handle.Kind() != reflect.Uintptr || handle.Uint() == 0 {
		return 0, fmt.Errorf("db: a SQLite connection of type %T has no database handle", c)
	}
	return uintptr(handle.Uint()), nil
}

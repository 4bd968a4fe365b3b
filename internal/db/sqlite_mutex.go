package db

import (
	"database/sql/driver"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Why every SQLite connection gives up its own mutex: the driver opens
// connections SQLITE_OPEN_FULLMUTEX ("serialized"), so SQLite enters and
// leaves a recursive mutex around every API call, each sqlite3_column_*
// read included. database/sql already hands a connection to one goroutine
// at a time, which is all SQLite's "multi-thread" mode asks, and in the
// transpiled library each of those mutex calls is a Go mutex behind two
// atomics: 16 % of the CPU of a page of 50 tickets (docs/performance.md,
// "Lists at scale, session 17"). A connection without a mutex is exactly
// what SQLITE_OPEN_NOMUTEX opens: SQLite tests db->mutex for NULL at each
// use. The process-wide mutexes (memory, page cache, VFS) stay.

// dropConnectionMutex frees the connection mutex of c, which has just been
// opened and is not yet in use by anyone.
func dropConnectionMutex(c driver.Conn) error {
	handle, err := sqliteHandle(c)
	if err != nil {
		return err
	}
	conn := (*sqlite3.Tsqlite3)(unsafe.Add(unsafe.Pointer(nil), handle)) // C memory, never moved
	if conn.Fmutex == 0 {
		return nil
	}
	tls := libc.NewTLS()
	defer tls.Close()
	mutex := conn.Fmutex
	conn.Fmutex = 0
	sqlite3.Xsqlite3_mutex_free(tls, mutex)
	return nil
}

// connectionMutex reports the connection mutex of c (0: none).
func connectionMutex(c driver.Conn) (uintptr, error) {
	handle, err := sqliteHandle(c)
	if err != nil {
		return 0, err
	}
	tls := libc.NewTLS()
	defer tls.Close()
	return sqlite3.Xsqlite3_db_mutex(tls, handle), nil
}

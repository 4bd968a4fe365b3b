package db

import (
	"fmt"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Why every SQLite connection gets 500 lookaside slots instead of 40: a
// connection takes small allocations (a statement's registers, a text
// column's copy, a cursor) from its lookaside before it asks the allocator,
// and the transpiled allocator is one Go mutex for the whole process, which
// the two cores fight over. The cached prepared statements of a connection
// keep SQLite's default 40 slots of 1,200 bytes taken for their lifetime,
// so every page's registers went to the allocator: 14 % of a ticket page's
// CPU. 500 slots (600 KB per connection) serve them; 200 or 2,000 made no
// difference (docs/performance.md, "Lists at scale, session 17").
const (
	lookasideSlotSize = 1200
	lookasideSlots    = 500
)

// lookasideErr is set once, before any connection opens, and read by
// openSQLite: the setting is SQLite's own process-wide default, which it
// accepts only before it initialises.
var lookasideErr = configureLookaside()

func configureLookaside() error {
	tls := libc.NewTLS()
	defer tls.Close()
	args := libc.Xmalloc(tls, 2*8) // libc.VaList packs each argument into 8 bytes
	if args == 0 {
		return fmt.Errorf("db: configure SQLite lookaside: out of memory")
	}
	defer libc.Xfree(tls, args)
	rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_LOOKASIDE,
		libc.VaList(args, int32(lookasideSlotSize), int32(lookasideSlots)))
	if rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("db: configure SQLite lookaside: sqlite3_config returned %d (SQLite already initialised?)", rc)
	}
	return nil
}

package tables

import (
	"testing"
	"time"

	"portfolio/internal/validate"
)

// The hand-written check of SQLite's stored form must agree with the
// general parser on every input, valid or not.
func TestStoredDateTimeAgreesWithParser(t *testing.T) {
	for _, s := range []string{
		"2026-11-25 10:07:57", "2024-02-29 23:59:59", "2023-02-29 00:00:00", "2026-04-31 12:00:00",
		"2026-13-01 00:00:00", "2026-00-10 00:00:00", "2026-01-00 00:00:00", "2026-01-01 24:00:00",
		"2026-01-01 23:60:00", "2026-01-01 23:59:60", "0000-01-01 00:00:00", "9999-12-31 23:59:59",
		"2026-1-01 00:00:00x", "2026/01/01 00:00:00", "2026-01-01T00:00:00", "+026-01-01 00:00:00",
		"2026-01-01 00:00:0a", "2026-01-01 00:00:00.5", "2026-01-01", "2026-11-21 09:04:35+00:00",
		"2026-11-21 09:04:35+01:00", "2026-11-21 09:04:35-00:00", "2023-02-29 09:04:35+00:00", "2026-11-21 09:04:35+00:0",
	} {
		checkStoredDateTime(t, s)
	}
}

func FuzzStoredDateTime(f *testing.F) {
	f.Add("2026-11-25 10:07:57")
	f.Add("2023-02-29 00:00:00")
	f.Add("2026-11-21 09:04:35+00:00")
	f.Fuzz(checkStoredDateTime)
}

func checkStoredDateTime(t *testing.T, s string) {
	fast, fastOK := dateTimeText(nil, []byte(s))
	want, err := validate.ParseDateTime(s)
	if (err == nil) != fastOK {
		t.Fatalf("%q: encoded %v, parser error %v", s, fastOK, err)
	}
	if err == nil && string(fast) != want.Format(time.RFC3339) {
		t.Fatalf("%q: encoded %s, parser %s", s, fast, want.Format(time.RFC3339))
	}
}

package tables

import (
	"database/sql"
	"strconv"
	"time"
	"unicode/utf8"

	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// The JSON encoding of values by type, written straight from the scanned
// bytes so a 100,000-row answer allocates almost nothing per row:
//
//	id, int, bool  number (booleans 0 or 1)
//	decimal        number, without trailing zeros (PostgreSQL's 19.5000 → 19.5)
//	string         string
//	date           "2006-01-02"
//	datetime       RFC 3339 in UTC, "2006-01-02T15:04:05Z"
//	NULL           null

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// isNumber reports whether b follows the JSON number grammar
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

func isInteger(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i, c := range b {
		if (c < '0' || c > '9') && !(i == 0 && c == '-' && len(b) > 1) {
			return false
		}
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	return !(len(b) > 1 && b[0] == '0')
}

// trimDecimal removes trailing zeros of a decimal's fraction.
func trimDecimal(b []byte) []byte {
	dot := -1
	for i, c := range b {
		switch c {
		case '.':
			dot = i
		case 'e', 'E':
			return b
		}
	}
	if dot < 0 {
		return b
	}
	end := len(b)
	for end > dot+1 && b[end-1] == '0' {
		end--
	}
	if end == dot+1 {
		end = dot
	}
	return b[:end]
}

// dateText returns the "2006-01-02" part of a scanned date (drivers give
// "2006-01-02", "2006-01-02T00:00:00Z" or "2006-01-02 00:00:00+00:00").
func dateText(b []byte) ([]byte, bool) {
	if len(b) < 10 || b[4] != '-' || b[7] != '-' {
		return nil, false
	}
	return b[:10], true
}

// dateTimeText normalises a scanned date-time to RFC 3339 UTC.
func dateTimeText(dst, b []byte) ([]byte, bool) {
	if len(b) == 20 && b[10] == 'T' && b[19] == 'Z' {
		return append(dst, b...), true // already "2006-01-02T15:04:05Z"
	}
	if isStoredDateTime(b) { // as SQLite keeps it: no parse needed
		dst = append(dst, b[:10]...)
		dst = append(dst, 'T')
		dst = append(dst, b[11:19]...)
		return append(dst, 'Z'), true
	}
	t, err := validate.ParseDateTime(string(b))
	if err != nil {
		return dst, false
	}
	return t.AppendFormat(dst, time.RFC3339), true
}

// isStoredDateTime reports whether b is a valid UTC date-time in a form
// SQLite keeps: "2006-01-02 15:04:05", or with "+00:00" as the driver writes
// a time.Time. Checked by hand because the general parser, which tries every
// accepted layout in turn, was a tenth of a ticket page's CPU.
func isStoredDateTime(b []byte) bool {
	if len(b) == 25 && string(b[19:]) == "+00:00" {
		b = b[:19]
	}
	if len(b) != 19 || b[4] != '-' || b[7] != '-' || b[10] != ' ' || b[13] != ':' || b[16] != ':' {
		return false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range b[i : i+n] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, second := num(11, 2), num(14, 2), num(17, 2)
	if year < 1 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 ||
		minute < 0 || minute > 59 || second < 0 || second > 59 {
		return false
	}
	return day <= time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// appendValue appends the JSON of one scanned value of type t.
func appendValue(dst []byte, t schema.DataType, raw sql.RawBytes) []byte {
	if raw == nil {
		return append(dst, "null"...)
	}
	switch t {
	case schema.TypeID, schema.TypeInt, schema.TypeBool:
		if isInteger(raw) {
			return append(dst, raw...)
		}
		if d := trimDecimal(raw); isInteger(d) { // SQLite may hand back 3.0
			return append(dst, d...)
		}
	case schema.TypeDecimal:
		if d := trimDecimal(raw); isNumber(d) {
			return append(dst, d...)
		}
	case schema.TypeDate:
		if d, ok := dateText(raw); ok {
			return appendString(dst, d)
		}
	case schema.TypeDateTime:
		dst = append(dst, '"')
		if out, ok := dateTimeText(dst, raw); ok {
			return append(out, '"')
		}
		dst = dst[:len(dst)-1]
	}
	return appendString(dst, raw)
}

// plainValue converts one scanned value to its canonical Go value
// (validate.Record): int64, float64, string, date string, time.Time.
func plainValue(t schema.DataType, raw sql.RawBytes) any {
	if raw == nil {
		return nil
	}
	switch t {
	case schema.TypeID, schema.TypeInt, schema.TypeBool:
		if n, err := strconv.ParseInt(string(trimDecimal(raw)), 10, 64); err == nil {
			return n
		}
	case schema.TypeDecimal:
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return f
		}
	case schema.TypeDate:
		if d, ok := dateText(raw); ok {
			return string(d)
		}
	case schema.TypeDateTime:
		if t, err := validate.ParseDateTime(string(raw)); err == nil {
			return t
		}
	}
	return string(raw)
}

// cellText is the export form of one scanned value: numbers and dates as
// in JSON, text as is; ok is false for NULL.
func cellText(t schema.DataType, raw sql.RawBytes) (string, bool) {
	if raw == nil {
		return "", false
	}
	switch t {
	case schema.TypeDecimal:
		return string(trimDecimal(raw)), true
	case schema.TypeDate:
		if d, ok := dateText(raw); ok {
			return string(d), true
		}
	case schema.TypeDateTime:
		if out, ok := dateTimeText(nil, raw); ok {
			return string(out), true
		}
	}
	return string(raw), true
}

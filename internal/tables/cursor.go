package tables

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"strconv"
	"sync/atomic"
	"time"

	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// Page describes the page a list answered.
type Page struct {
	CurrentPage int    `json:"current_page"`
	PerPage     int    `json:"per_page"`
	From        *int   `json:"from"`
	To          *int   `json:"to"`
	HasMore     bool   `json:"has_more"`
	Total       *int64 `json:"total,omitempty"`
	// TotalAsOf, when set, says Total was counted at that moment and the
	// rows are being counted again (decision 0057): a total that takes long
	// to count is not counted again before the page after a write.
	TotalAsOf *time.Time `json:"total_as_of,omitempty"`
	// Next continues the list after this page (keyset.go): the "after" of
	// the next request. Only when HasMore and the order allows it.
	Next string `json:"next,omitempty"`
}

// Cursor walks the rows of a list while they are read from the database,
// so an answer of any size is encoded row by row with flat memory. It
// stops after PerPage rows, using one more row to tell HasMore. The caller
// must Close it.
type Cursor struct {
	rows  rowSource
	cols  []*colSpec
	raw   []sql.RawBytes
	dest  []any
	keys  [][]byte
	limit int
	n     int
	err   error
	page  Page
	// Attributes are the served attribute definitions of the rows (the
	// "attributes" member of a read-rich answer); attributesJSON, when set,
	// is them already encoded.
	Attributes     any
	attributesJSON json.RawMessage
	// A cached total waiting for confirmation (see confirm).
	cached    *countEntry
	rowGen    int64
	recount   func(minGeneration int64) (n int64, asOf *time.Time, err error)
	confirmed bool
	served    *atomic.Int64
	// Keyset paging (keyset.go): the sort value each row carries last, and
	// the last row's value and key, copied (raw bytes die with the next row).
	nextable bool
	nextTok  keysetToken
	orderRaw sql.RawBytes
	pkIdx    int
	lastVal  []byte
	lastNull bool
	// computedGen is the data generation of the computed columns' tables
	// the row was read at, dest[computedAt] (computedcache.go).
	computedGen int64
	computedAt  int
	// fromToken: the page started at an "after" token, whose position may
	// be stale after writes, so the last page does not tell the total.
	fromToken bool
	// refs fills in the values of referenced rows of few rows (refcache.go).
	refs *refFill
	// probeGen is the data generation of the table of a remembered label
	// probe the page was planned by, as its rows read it (labelsort.go).
	probeGen int64
	// peeked: the first row is read (peek) and Next has yet to answer it.
	peeked bool
}

// peek reads the first row ahead of Next; false when there is none or
// reading failed (Err).
func (c *Cursor) peek() bool {
	c.peeked = c.next()
	return c.peeked
}

// keyset makes the cursor answer a next token: each row's last column is
// its sort value (listPlan.selectWith).
func (c *Cursor) keyset(p *listPlan) {
	c.nextable = true
	c.nextTok = keysetToken{Target: p.targetName(), Order: p.order.name, Desc: p.desc}
	if c.pkIdx = keyColumn(p); c.pkIdx < 0 {
		c.nextable = false // never: the key is always read (resolveColumns)
	}
	c.dest = append(c.dest, &c.orderRaw)
}

// confirm makes the cursor answer the cached total when the data
// generation each row carries in its last column equals the one the total
// was counted at; otherwise the last page tells the total by itself
// (offset + rows), and any other page asks recount once the rows are read
// and their connection is free (which may answer an older total with its
// moment, Engine.settleTotal).
func (c *Cursor) confirm(cached countEntry, recount func(minGeneration int64) (n int64, asOf *time.Time, err error)) {
	c.cached, c.recount = &cached, recount
	c.dest = append(c.dest, &c.rowGen)
}

func newCursor(rows rowSource, cols []*colSpec, limit, offset int) *Cursor {
	c := &Cursor{rows: rows, cols: cols, limit: limit,
		raw: make([]sql.RawBytes, len(cols)), dest: make([]any, len(cols)), keys: make([][]byte, len(cols))}
	for i, col := range cols {
		c.dest[i] = &c.raw[i]
		c.keys[i] = append(appendString(nil, []byte(col.name)), ':')
	}
	c.page.PerPage = limit
	if limit > 0 {
		c.page.CurrentPage = offset/limit + 1
	}
	c.page.From = new(int)
	*c.page.From = offset
	return c
}

// Next reads the next row; false at the end of the page or on error (see
// Err).
func (c *Cursor) Next() bool {
	ok := c.peeked || c.next()
	c.peeked = false
	if ok {
		if c.cached != nil && !c.confirmed && c.rowGen == c.cached.generation {
			c.confirmed = true
			if c.served != nil {
				c.served.Add(1)
			}
			n := c.cached.n
			c.page.Total = &n
		}
		return true
	}
	c.settle()
	return false
}

// settle counts again when a cached total was not confirmed by the rows.
func (c *Cursor) settle() {
	if c.cached == nil || c.page.Total != nil || c.err != nil || c.rows == nil {
		return
	}
	if err := c.rows.Err(); err != nil {
		return // reported by Err
	}
	if !c.page.HasMore && !c.fromToken && (c.n > 0 || *c.page.From == 0) {
		// The last page, read in one snapshot: it tells the total itself.
		n := int64(*c.page.From + c.n)
		c.page.Total = &n
		return
	}
	_ = c.rows.Close()                  // free the connection before counting
	n, asOf, err := c.recount(c.rowGen) // a total at least as new as the rows, or as of asOf
	if err != nil {
		c.err = err
		return
	}
	c.page.Total, c.page.TotalAsOf = &n, asOf
}

func (c *Cursor) next() bool {
	if c.err != nil || c.rows == nil {
		return false
	}
	if c.limit > 0 && c.n == c.limit {
		c.page.HasMore = c.rows.Next()
		return false
	}
	if !c.rows.Next() {
		return false
	}
	if err := c.rows.Scan(c.dest...); err != nil {
		c.err = fmt.Errorf("tables: scan row: %w", err)
		return false
	}
	if c.refs != nil && !c.refs.fill(c.raw) {
		if err := c.readRefs(); err != nil {
			c.err = err
			return false
		}
	}
	c.n++
	if c.nextable {
		c.lastNull = c.orderRaw == nil
		c.lastVal = append(c.lastVal[:0], c.orderRaw...)
		c.nextTok.Key, _ = strconv.ParseInt(string(trimDecimal(c.raw[c.pkIdx])), 10, 64)
	}
	return true
}

// AppendJSON appends the current row as a JSON object.
func (c *Cursor) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	for i, col := range c.cols {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c.keys[i]...)
		if col.through() {
			dst = appendThroughValue(dst, col, c.raw[i])
			continue
		}
		dst = appendValue(dst, col.typ, c.raw[i])
	}
	return append(dst, '}')
}

// Record returns the current row as canonical values.
func (c *Cursor) Record() validate.Record {
	rec := make(validate.Record, len(c.cols))
	for i, col := range c.cols {
		if col.through() {
			rec[col.name] = throughPlain(col, c.raw[i])
			continue
		}
		rec[col.name] = plainValue(col.typ, c.raw[i])
	}
	return rec
}

// Index is the position of column name among the row's columns, or -1.
func (c *Cursor) Index(name string) int {
	for i, col := range c.cols {
		if col.name == name {
			return i
		}
	}
	return -1
}

// Value is the current row's value at column i, as Record holds it; nil
// for NULL or for i = -1. A module reading a few columns of every row
// uses it instead of Record, which builds a map per row.
func (c *Cursor) Value(i int) any {
	if i < 0 {
		return nil
	}
	col, raw := c.cols[i], c.raw[i]
	if col.through() {
		return throughPlain(col, raw)
	}
	return plainValue(col.typ, raw)
}

// Err reports a failure while reading rows.
func (c *Cursor) Err() error {
	if c.err != nil {
		return c.err
	}
	if c.rows != nil {
		if err := c.rows.Err(); err != nil {
			return fmt.Errorf("tables: read rows: %w", err)
		}
	}
	return nil
}

// Rows is the number of rows read so far.
func (c *Cursor) Rows() int { return c.n }

// Page describes the page after the rows were read.
func (c *Cursor) Page() Page {
	p := c.page
	if c.n == 0 {
		p.From, p.To = nil, nil
		return p
	}
	from, to := *c.page.From+1, *c.page.From+c.n
	p.From, p.To = &from, &to
	if c.nextable && p.HasMore && c.nextTok.Key > 0 {
		k := c.nextTok
		if !c.lastNull {
			v := string(c.lastVal)
			k.Value = &v
		}
		k.Pos = to
		p.Next = encodeAfter(k)
	}
	return p
}

// Close releases the rows.
func (c *Cursor) Close() error {
	if c.rows == nil {
		return nil
	}
	return c.rows.Close()
}

// Cell is one value of the current row for an export: nil for NULL,
// int64 or float64 for numbers, string for everything else (dates in
// "2006-01-02", date-times in RFC 3339).
func (c *Cursor) Cell(i int) any {
	col, raw := c.cols[i], c.raw[i]
	if col.through() {
		return throughCell(raw)
	}
	s, ok := cellText(col.typ, raw)
	if !ok {
		return nil
	}
	switch col.typ {
	case schema.TypeID, schema.TypeInt, schema.TypeBool:
		if n, err := strconv.ParseInt(string(trimDecimal(raw)), 10, 64); err == nil {
			return n
		}
	case schema.TypeDecimal:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return s
}

// Columns is the number of columns of each row.
func (c *Cursor) Columns() int { return len(c.cols) }

// rowSource is what a cursor reads rows from: the database's rows, or a
// page read ahead (bufferedRows).
type rowSource interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// splitGenerations reads the one column of data generations a page
// carries (generationsColumn) into the cursor's n int64 destinations from
// index at on.
type splitGenerations struct {
	rowSource
	at, n int
	raw   sql.RawBytes
	inner []any
	// last are the generations of the row before, read from lastRaw: a
	// page's rows all read the same (one sub-query), parsed once.
	last    []int64
	lastRaw []byte
}

func (s *splitGenerations) Scan(dest ...any) error {
	if len(dest) < s.at+s.n {
		return fmt.Errorf("tables: scan row: %d destinations, generations at %d", len(dest), s.at)
	}
	s.inner = append(append(append(s.inner[:0], dest[:s.at]...), &s.raw), dest[s.at+s.n:]...)
	if err := s.rowSource.Scan(s.inner...); err != nil {
		return err
	}
	if s.last == nil || !bytes.Equal(s.raw, s.lastRaw) {
		if err := s.parse(); err != nil {
			return err
		}
	}
	for i, g := range s.last {
		d, ok := dest[s.at+i].(*int64)
		if !ok {
			return fmt.Errorf("tables: scan row: data generation into %T", dest[s.at+i])
		}
		*d = g
	}
	return nil
}

// parse reads the generations of raw into last.
func (s *splitGenerations) parse() error {
	s.last = s.last[:0]
	rest := s.raw
	for i := range s.n {
		field, after, _ := bytes.Cut(rest, []byte{','})
		g, err := strconv.ParseInt(string(trimDecimal(field)), 10, 64)
		if err != nil {
			return fmt.Errorf("tables: scan row: data generation %d of %q: %w", i, s.raw, err)
		}
		s.last, rest = append(s.last, g), after
	}
	s.lastRaw = append(s.lastRaw[:0], s.raw...)
	return nil
}

// bufferedRows is a page read to its end, each value copied: value j of
// row i is spans[i*width+j] of bytes or, for an *int64 destination,
// ints[i*width+j]. Offsets, not slices: a page of slices allocated and
// traced a pointer per value, which cost more than reading the page.
type bufferedRows struct {
	width int
	spans []span
	ints  []int64
	bytes []byte
	n, at int
}

// span is a value's place in bufferedRows.bytes; to < 0 for NULL.
type span struct{ from, to int32 }

// emptyValue is an empty text, which is not NULL.
var emptyValue = []byte{}

// readRefs reads the page to its end (which frees its connection) and the
// values of referenced rows its rows lack, then fills in the current row.
func (c *Cursor) readRefs() error {
	buf, ok := c.rows.(*bufferedRows)
	if !ok {
		var err error
		if buf, err = bufferRows(c.rows, c.dest, true, c.limit+1-c.n); err != nil {
			return err
		}
		buf.at = 0
		c.rows = buf
		if err := buf.Scan(c.dest...); err != nil {
			return err
		}
	}
	if err := c.refs.complete(buf); err != nil {
		return err
	}
	if !c.refs.fill(c.raw) {
		return fmt.Errorf("tables: referenced values: a key of the page was not read")
	}
	return nil
}

// bufferRows reads src to its end into dest's kinds of values and closes
// it, which frees its connection; withCurrent keeps the row dest already
// holds as the first. rows is how many rows to make room for.
func bufferRows(src rowSource, dest []any, withCurrent bool, rows int) (*bufferedRows, error) {
	defer src.Close()
	rows = max(0, min(rows, maxBufferHint))
	b := &bufferedRows{width: len(dest), at: -1, spans: make([]span, 0, rows*len(dest)), ints: make([]int64, 0, rows*len(dest))}
	if withCurrent {
		if err := b.appendRow(dest); err != nil {
			return nil, err
		}
	}
	for src.Next() {
		if err := src.Scan(dest...); err != nil {
			return nil, fmt.Errorf("tables: scan row: %w", err)
		}
		if err := b.appendRow(dest); err != nil {
			return nil, err
		}
		if b.n == 1 && rows > 1 { // the rows to come are likely as long as this one
			b.bytes = slices.Grow(b.bytes, len(b.bytes)*(rows-1))
		}
	}
	if err := src.Err(); err != nil {
		return nil, fmt.Errorf("tables: read rows: %w", err)
	}
	return b, src.Close()
}

// appendRow copies the values dest were scanned to. It works on local
// slices, written back once: each write of a slice to the heap is a write
// barrier while the collector runs.
func (b *bufferedRows) appendRow(dest []any) error {
	spans, ints, bytes := b.spans, b.ints, b.bytes
	for _, d := range dest {
		switch d := d.(type) {
		case *sql.RawBytes:
			var sp span
			sp, bytes = keep(bytes, *d)
			spans, ints = append(spans, sp), append(ints, 0)
		case *int64:
			spans, ints = append(spans, span{to: -1}), append(ints, *d)
		default:
			return fmt.Errorf("tables: read ahead: destination %T", d)
		}
	}
	b.spans, b.ints, b.bytes = spans, ints, bytes
	b.n++
	return nil
}

// keep appends v to bytes and answers its place.
func keep(bytes, v []byte) (span, []byte) {
	if v == nil {
		return span{to: -1}, bytes
	}
	from := len(bytes)
	if from+len(v) > math.MaxInt32 {
		panic("tables: a page read ahead holds more than 2 GiB") // per_page is bounded far below
	}
	bytes = append(bytes, v...)
	return span{from: int32(from), to: int32(len(bytes))}, bytes
}

// maxBufferHint bounds the rows a buffer makes room for at once: a page
// is 50 rows, a whole list read in one answer may be 100,000.
const maxBufferHint = 1000

// rawAt and intAt are value j of row i.
func (b *bufferedRows) rawAt(i, j int) []byte { return b.value(b.spans[i*b.width+j]) }
func (b *bufferedRows) intAt(i, j int) int64  { return b.ints[i*b.width+j] }

func (b *bufferedRows) value(s span) []byte {
	switch {
	case s.to < 0:
		return nil
	case s.from == s.to:
		return emptyValue
	}
	return b.bytes[s.from:s.to:s.to]
}

// fill sets the values of columns cols of row i.
func (b *bufferedRows) fill(i int, cols []int, values [][]byte) {
	for j, at := range cols {
		if j < len(values) {
			b.spans[i*b.width+at], b.bytes = keep(b.bytes, values[j])
		}
	}
}

func (b *bufferedRows) Next() bool {
	if b.at+1 >= b.n {
		b.at = b.n
		return false
	}
	b.at++
	return true
}

func (b *bufferedRows) Scan(dest ...any) error {
	row := b.at * b.width
	for i, d := range dest {
		switch d := d.(type) {
		case *sql.RawBytes:
			*d = b.value(b.spans[row+i])
		case *int64:
			*d = b.ints[row+i]
		}
	}
	return nil
}

func (b *bufferedRows) Err() error   { return nil }
func (b *bufferedRows) Close() error { return nil }

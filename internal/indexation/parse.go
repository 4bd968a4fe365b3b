package indexation

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Point is one month's value read from a file, with its line.
type Point struct {
	Month Month
	Value decimal.Decimal
	Line  int
}

// Skip is a month a file names without a value (not yet published, no
// value), reported in the import's answer.
type Skip struct {
	Month  string `json:"month"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Parsed is what a file holds.
type Parsed struct {
	// Layout is "table", "flat" or "csv".
	Layout string
	// BaseYear is the base year the file states (0: it states none).
	BaseYear int
	Points   []Point
	Skipped  []Skip
}

// ParseError says why a file cannot be read: its line (1-based, 0 for
// the whole file) and the reason. Nothing of such a file is imported.
type ParseError struct {
	Line   int
	Reason string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "indexation: " + e.Reason
	}
	return fmt.Sprintf("indexation: line %d: %s", e.Line, e.Reason)
}

// germanMonths are the month names of the publisher's table layout.
var germanMonths = map[string]int{
	"januar": 1, "februar": 2, "märz": 3, "maerz": 3, "april": 4, "mai": 5, "juni": 6,
	"juli": 7, "august": 8, "september": 9, "oktober": 10, "november": 11, "dezember": 12,
}

var (
	plainMonth = regexp.MustCompile(`^([0-9]{4})-(0[1-9]|1[0-2])$`)
	baseMark   = regexp.MustCompile(`^([0-9]{4})=100$`)
	yearCell   = regexp.MustCompile(`^[0-9]{4}$`)
	flatMonth  = regexp.MustCompile(`^MONAT(0[1-9]|1[0-2])$`)
)

// Parse reads a price index file in one of the layouts of decision 0011:
// the publisher's table layout (title block, a year only on January,
// German month names, decimal commas, quality flags, "..." for months not
// yet published, a copyright block), its flat layout (one observation per
// row, dimensions as columns), or a plain two-column CSV (YYYY-MM;value,
// an optional header). A byte-order mark and CRLF line ends are accepted.
// Any line it cannot read, a month twice, a negative or non-numeric value
// is a ParseError: the file is refused as a whole.
func Parse(data []byte) (*Parsed, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	first := -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, &ParseError{Reason: "the file is empty"}
	}
	head := strings.TrimSpace(lines[first])
	var p *Parsed
	var err error
	switch {
	case strings.HasPrefix(head, "statistics_code;"):
		p, err = parseFlat(lines, first)
	case strings.HasPrefix(head, "Tabelle:") || hasTableRow(lines):
		p, err = parseTable(lines)
	case isPlainRow(head) || isPlainHeader(head):
		p, err = parsePlain(lines)
	default:
		return nil, &ParseError{Line: first + 1, Reason: "unknown layout: expected the table or flat export of a price index, or lines YYYY-MM;value"}
	}
	if err != nil {
		return nil, err
	}
	if len(p.Points) == 0 {
		return nil, &ParseError{Reason: "the file holds no index value"}
	}
	seen := map[Month]int{}
	for _, pt := range p.Points {
		if line, ok := seen[pt.Month]; ok {
			return nil, &ParseError{Line: pt.Line, Reason: fmt.Sprintf("month %s appears twice (also line %d)", pt.Month, line)}
		}
		seen[pt.Month] = pt.Line
	}
	return p, nil
}

func cells(line string) []string {
	c := strings.Split(line, ";")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

func hasTableRow(lines []string) bool {
	for _, l := range lines {
		c := cells(l)
		if len(c) >= 3 {
			if _, ok := germanMonths[strings.ToLower(c[1])]; ok {
				return true
			}
		}
	}
	return false
}

func isPlainRow(line string) bool {
	c := splitPlain(line)
	return len(c) >= 2 && plainMonth.MatchString(c[0])
}

func isPlainHeader(line string) bool {
	c := splitPlain(line)
	return len(c) == 2 && strings.EqualFold(c[0], "month")
}

// splitPlain splits a plain line on ";" (or "," or a tab when the line has
// no ";").
func splitPlain(line string) []string {
	sep := ";"
	if !strings.Contains(line, ";") {
		if strings.Contains(line, "\t") {
			sep = "\t"
		} else {
			sep = ","
		}
	}
	c := strings.Split(strings.TrimSpace(line), sep)
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

// noValue tells the publisher's marks for a cell without a value: the
// reason to report, or "" for a cell that should hold a number.
func noValue(cell string) string {
	switch cell {
	case "...":
		return "not yet published"
	case ".", "x", "/", "-", "":
		return "no value"
	}
	return ""
}

// number reads a value with a decimal comma or point; negative and
// non-numeric values are refused.
func number(cell string, line int) (decimal.Decimal, error) {
	s := strings.ReplaceAll(strings.TrimSpace(cell), " ", "")
	if strings.Contains(s, ",") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return decimal.Decimal{}, &ParseError{Line: line, Reason: fmt.Sprintf("%q is not a number", cell)}
	}
	v, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, &ParseError{Line: line, Reason: fmt.Sprintf("%q is not a number", cell)}
	}
	if !v.IsPositive() {
		return decimal.Decimal{}, &ParseError{Line: line, Reason: fmt.Sprintf("%q: an index value must be positive", cell)}
	}
	if v.Exponent() < -4 || v.GreaterThanOrEqual(decimal.NewFromInt(100000)) {
		return decimal.Decimal{}, &ParseError{Line: line, Reason: fmt.Sprintf("%q: at most 4 decimals and below 100000", cell)}
	}
	return v, nil
}

// parseTable reads the table layout: title lines until the first month
// row, month rows (the year on January only), then the copyright block;
// a month row after that block, or any other line between month rows, is
// refused.
func parseTable(lines []string) (*Parsed, error) {
	p := &Parsed{Layout: "table"}
	year, started, ended := 0, false, false
	for i, l := range lines {
		n := i + 1
		if strings.TrimSpace(l) == "" {
			if started {
				ended = true
			}
			continue
		}
		c := cells(l)
		month := 0
		if len(c) >= 3 {
			month = germanMonths[strings.ToLower(c[1])]
		}
		if month == 0 {
			if !started {
				for _, cell := range c {
					if m := baseMark.FindStringSubmatch(cell); m != nil && p.BaseYear == 0 {
						p.BaseYear, _ = strconv.Atoi(m[1])
					}
				}
				continue // title block
			}
			ended = true // copyright block
			continue
		}
		if ended {
			return nil, &ParseError{Line: n, Reason: "a month row after the end of the table"}
		}
		started = true
		switch {
		case yearCell.MatchString(c[0]):
			year, _ = strconv.Atoi(c[0])
		case c[0] != "":
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%q is not a year", c[0])}
		case year == 0:
			return nil, &ParseError{Line: n, Reason: "a month row before any year"}
		}
		m := Month(year*12 + month - 1)
		if why := noValue(c[2]); why != "" {
			p.Skipped = append(p.Skipped, Skip{Month: m.String(), Line: n, Reason: why})
			continue
		}
		v, err := number(c[2], n)
		if err != nil {
			return nil, err
		}
		p.Points = append(p.Points, Point{Month: m, Value: v, Line: n})
	}
	return p, nil
}

// parseFlat reads the flat layout: a header naming the columns, then one
// observation per row; only the index rows (unit "<year>=100") count, the
// change rates (unit "%") are left aside.
func parseFlat(lines []string, headLine int) (*Parsed, error) {
	p := &Parsed{Layout: "flat"}
	head := cells(strings.TrimPrefix(lines[headLine], "\ufeff"))
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	need := []string{"time", "1_variable_attribute_code", "value", "value_unit"}
	for _, h := range need {
		if _, ok := col[h]; !ok {
			return nil, &ParseError{Line: headLine + 1, Reason: fmt.Sprintf("the header has no column %q", h)}
		}
	}
	for i := headLine + 1; i < len(lines); i++ {
		n := i + 1
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		c := cells(lines[i])
		if len(c) != len(head) {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%d columns, the header has %d", len(c), len(head))}
		}
		unit := baseMark.FindStringSubmatch(c[col["value_unit"]])
		if unit == nil {
			if c[col["value_unit"]] == "%" {
				continue // a change rate
			}
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("unit %q is neither an index (YYYY=100) nor %%", c[col["value_unit"]])}
		}
		base, _ := strconv.Atoi(unit[1])
		if p.BaseYear != 0 && base != p.BaseYear {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("base year %d, earlier rows %d", base, p.BaseYear)}
		}
		p.BaseYear = base
		if !yearCell.MatchString(c[col["time"]]) {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%q is not a year", c[col["time"]])}
		}
		year, _ := strconv.Atoi(c[col["time"]])
		mm := flatMonth.FindStringSubmatch(c[col["1_variable_attribute_code"]])
		if mm == nil {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%q is not a month (MONAT01–MONAT12)", c[col["1_variable_attribute_code"]])}
		}
		month, _ := strconv.Atoi(mm[1])
		m := Month(year*12 + month - 1)
		cell := c[col["value"]]
		if why := noValue(cell); why != "" {
			p.Skipped = append(p.Skipped, Skip{Month: m.String(), Line: n, Reason: why})
			continue
		}
		v, err := number(cell, n)
		if err != nil {
			return nil, err
		}
		p.Points = append(p.Points, Point{Month: m, Value: v, Line: n})
	}
	return p, nil
}

// parsePlain reads lines YYYY-MM;value after an optional header line.
func parsePlain(lines []string) (*Parsed, error) {
	p := &Parsed{Layout: "csv"}
	headerSeen := false
	for i, l := range lines {
		n := i + 1
		if strings.TrimSpace(l) == "" {
			continue
		}
		c := splitPlain(l)
		if !headerSeen && len(p.Points) == 0 && len(p.Skipped) == 0 && isPlainHeader(l) {
			headerSeen = true
			continue
		}
		if len(c) != 2 {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%d columns, expected 2 (YYYY-MM;value)", len(c))}
		}
		if !plainMonth.MatchString(c[0]) {
			return nil, &ParseError{Line: n, Reason: fmt.Sprintf("%q is not a month YYYY-MM", c[0])}
		}
		m, _ := ParseMonth(c[0])
		if why := noValue(c[1]); why != "" {
			p.Skipped = append(p.Skipped, Skip{Month: m.String(), Line: n, Reason: why})
			continue
		}
		v, err := number(c[1], n)
		if err != nil {
			return nil, err
		}
		p.Points = append(p.Points, Point{Month: m, Value: v, Line: n})
	}
	return p, nil
}

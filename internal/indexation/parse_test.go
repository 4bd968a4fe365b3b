package indexation

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// readShared reads one of the publisher's real exports: the table layout
// the product ships (data/), the flat layout kept for the tests
// (testdata/, with the same attribution).
func readShared(t *testing.T, name string) []byte {
	t.Helper()
	for _, dir := range []string{"data/", "testdata/"} {
		if b, err := os.ReadFile(dir + name); err == nil {
			return b
		}
	}
	t.Fatalf("%s is in neither data/ nor testdata/", name)
	return nil
}

// TestParseRealFiles: both layouts of the publisher's export read to the
// same 406 months (January 1991 to October 2024), November and December
// 2024 skipped as not yet published.
func TestParseRealFiles(t *testing.T) {
	table, err := Parse(readShared(t, "61111-0002_de.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if table.Layout != "table" || table.BaseYear != 2020 || len(table.Points) != 406 || len(table.Skipped) != 2 {
		t.Fatalf("table: layout %s, base %d, %d points, skipped %v", table.Layout, table.BaseYear, len(table.Points), table.Skipped)
	}
	if p := table.Points[0]; p.Month.String() != "1991-01" || p.Value.String() != "60.5" || p.Line != 7 {
		t.Errorf("first point %v %s line %d", p.Month, p.Value, p.Line)
	}
	if s := table.Skipped[0]; s.Month != "2024-11" || s.Reason != "not yet published" {
		t.Errorf("skipped %+v", s)
	}
	flat, err := Parse(readShared(t, "61111-0002_de_flat.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if flat.Layout != "flat" || flat.BaseYear != 2020 || len(flat.Points) != 406 || len(flat.Skipped) != 2 {
		t.Fatalf("flat: layout %s, base %d, %d points, %d skipped", flat.Layout, flat.BaseYear, len(flat.Points), len(flat.Skipped))
	}
	byMonth := map[Month]string{}
	for _, p := range table.Points {
		byMonth[p.Month] = p.Value.String()
	}
	for _, p := range flat.Points {
		if byMonth[p.Month] != p.Value.String() {
			t.Errorf("%s: table %s, flat %s", p.Month, byMonth[p.Month], p.Value)
		}
	}
}

func TestParseBroken(t *testing.T) {
	table := string(readShared(t, "61111-0002_de.csv"))
	cases := []struct {
		name, data string
		line       int
		reason     string
	}{
		{"empty", "", 0, "empty"},
		{"other layout", "Name,Age\nAnna,3\n", 1, "unknown layout"},
		{"month twice", strings.Replace(table, ";Februar;60,8;e", ";Januar;60,8;e", 1), 8, "twice"},
		{"negative", strings.Replace(table, ";Februar;60,8;e", ";Februar;-60,8;e", 1), 8, "positive"},
		{"not a number", strings.Replace(table, ";Februar;60,8;e", ";Februar;sechzig;e", 1), 8, "not a number"},
		{"bad year", strings.Replace(table, "1992;Januar;63,9", "92;Januar;63,9", 1), 19, "not a year"},
		{"plain bad month", "2024-01;117,6\n2024-13;118\n", 2, "not a month"},
		{"plain twice", "month;value\n2024-01;117.6\n2024-01;118\n", 3, "twice"},
		{"plain three columns", "2024-01;117.6;x\n", 1, "expected 2"},
		{"flat bad unit", "statistics_code;time;1_variable_attribute_code;value;value_unit\n61111;2024;MONAT01;117,6;EUR\n", 2, "unit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v, want a ParseError", err)
			}
			if pe.Line != c.line || !strings.Contains(pe.Reason, c.reason) {
				t.Errorf("line %d %q, want line %d with %q", pe.Line, pe.Reason, c.line, c.reason)
			}
		})
	}
}

func TestParsePlain(t *testing.T) {
	p, err := Parse([]byte("\xef\xbb\xbfmonth;value\r\n2024-01;117,6\r\n2024-02;118.1\r\n2024-03;...\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Layout != "csv" || len(p.Points) != 2 || p.Points[1].Value.String() != "118.1" || len(p.Skipped) != 1 {
		t.Fatalf("%+v", p)
	}
}

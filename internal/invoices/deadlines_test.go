package invoices

import (
	"testing"
	"time"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// TestObjectionDeadline: counted to the day from receipt (§§ 187 (1), 188
// (2), (3) BGB). The worked example of Kinne/Schach/Bieber, BGB § 556 Rz.
// 100 (read on haufe.de, Deutsches Anwalt Office Premium): a statement
// received on 20 Dec 2013 — to the day (LG Berlin, 25 Oct 2016, 63 S
// 35/16, GE 2016, 1508) the period ends on 20 Dec 2014; the month-end
// reading (LG Frankfurt (Oder), 20 Nov 2012, 16 S 47/12, WuM 2013, 40)
// would give 31 Dec 2014. The product watches the earlier day.
func TestObjectionDeadline(t *testing.T) {
	for _, c := range []struct {
		received string
		months   int
		want     string
	}{
		{"2013-12-20", 12, "2014-12-20"},
		{"2025-03-15", 12, "2026-03-15"},
		// A month without the day: its last day (§ 188 (3) BGB).
		{"2024-02-29", 12, "2025-02-28"},
		{"2025-08-31", 6, "2026-02-28"},
		// No month-end carry: the 28th stays the 28th in a leap year.
		{"2023-02-28", 12, "2024-02-28"},
		{"2025-01-31", 1, "2025-02-28"},
	} {
		if got := ObjectionDeadline(day(c.received), c.months).Format(time.DateOnly); got != c.want {
			t.Errorf("received %s, %d months: %s, want %s", c.received, c.months, got, c.want)
		}
	}
}

// TestSettlementDeadline: the end of the twelfth month after the billing
// period (§ 556 (3) S. 2 BGB). Published examples: period 1 Jan–31 Dec 2005,
// the statement must reach the tenant by 31 Dec 2006 (Rechtsanwältin B.
// Ruland, rechtsanwaelte-sb.de, "Betriebskostennachzahlung"); period ending
// 31 Dec 2018, by the end of December 2019 (elvira-immo.de, Immobilien-
// Lexikon, "Abrechnungsfrist der Betriebskosten").
func TestSettlementDeadline(t *testing.T) {
	for _, c := range []struct {
		end    string
		months int
		want   string
	}{
		{"2005-12-31", 12, "2006-12-31"},
		{"2018-12-31", 12, "2019-12-31"},
		{"2023-02-28", 12, "2024-02-29"}, // the end of February 2024
		{"2025-06-30", 6, "2025-12-31"},
		// A period ending mid-month: the end of the month, the later reading.
		{"2025-06-15", 12, "2026-06-30"},
	} {
		if got := SettlementDeadline(day(c.end), c.months).Format(time.DateOnly); got != c.want {
			t.Errorf("period ends %s, %d months: %s, want %s", c.end, c.months, got, c.want)
		}
	}
}

// TestStatementDeadlinesOfAContract: without agreed periods both are
// twelve months; an agreed period replaces its own one only.
func TestStatementDeadlinesOfAContract(t *testing.T) {
	received, end := day("2026-05-04"), day("2025-12-31")
	got := statementDeadlines(&received, &end, periods{})
	if got[fieldObjection] != "2027-05-04" || got[fieldSettlement] != "2026-12-31" {
		t.Errorf("statutory: %v", got)
	}
	got = statementDeadlines(&received, &end, periods{objection: 6})
	if got[fieldObjection] != "2026-11-04" || got[fieldSettlement] != "2026-12-31" {
		t.Errorf("six months to object: %v", got)
	}
	got = statementDeadlines(nil, nil, periods{objection: 6, settlement: 9})
	if got[fieldObjection] != nil || got[fieldSettlement] != nil {
		t.Errorf("no dates: %v", got)
	}
}

package letter

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestFormatsPerLanguage(t *testing.T) {
	d := decimal.RequireFromString("-1234567.5")
	cases := []struct{ got, want string }{
		{Number(d, 2, "de"), "-1.234.567,50"},
		{Number(d, 1, "fr"), "-1\u00a0234\u00a0567,5"},
		{Number(d, 0, "xx"), "-1,234,568"},
		{Money(d, "en"), "-€1,234,567.50"},
		{Money(decimal.RequireFromString("12.5"), "de"), "12,50\u00a0€"},
		{Date(time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), "fr"), "09/03/2026"},
		{Date(time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), "en"), "9 March 2026"},
		{Month(2026, time.March, "de"), "März 2026"},
		{Escape(`<b>A & B</b>`), "&lt;b&gt;A &amp; B&lt;/b&gt;"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

package config

import (
	"flag"
	"strings"
	"testing"
)

// TestImportLimits: the import limits (decision 0067) have their
// defaults, are read from the environment, are overridden by flags, and
// Validate refuses limits that cannot hold.
func TestImportLimits(t *testing.T) {
	parse := func(t *testing.T, args ...string) Config {
		t.Helper()
		c := Defaults()
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		Register(fs, &c)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if got, want := parse(t).Imports, (Imports{MaxRows: 200_000, MaxCells: 2_000_000, MaxUnpackedBytes: 256 << 20, MaxPartBytes: 128 << 20}); got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	t.Setenv("PORTFOLIO_IMPORT_MAX_ROWS", "5000")
	t.Setenv("PORTFOLIO_IMPORT_MAX_CELLS", "60000")
	t.Setenv("PORTFOLIO_IMPORT_MAX_UNPACKED_BYTES", "33554432")
	t.Setenv("PORTFOLIO_IMPORT_MAX_PART_BYTES", "16777216")
	if got, want := parse(t).Imports, (Imports{MaxRows: 5000, MaxCells: 60000, MaxUnpackedBytes: 32 << 20, MaxPartBytes: 16 << 20}); got != want {
		t.Errorf("from the environment %+v, want %+v", got, want)
	}
	c := parse(t, "--import-max-rows", "7", "--import-max-part-bytes", "65536")
	if c.Imports.MaxRows != 7 || c.Imports.MaxCells != 60000 || c.Imports.MaxPartBytes != 64<<10 {
		t.Errorf("flags over the environment: %+v", c.Imports)
	}
	for _, bad := range []Imports{
		{MaxRows: 0, MaxCells: 1, MaxUnpackedBytes: 1 << 20, MaxPartBytes: 1 << 20},
		{MaxRows: 1, MaxCells: 0, MaxUnpackedBytes: 1 << 20, MaxPartBytes: 1 << 20},
		{MaxRows: 1, MaxCells: 1, MaxUnpackedBytes: 1 << 20, MaxPartBytes: 1 << 10},
		{MaxRows: 1, MaxCells: 1, MaxUnpackedBytes: 1 << 20, MaxPartBytes: 2 << 20},
	} {
		c := Defaults()
		c.Imports = bad
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "import limits") {
			t.Errorf("%+v: %v, want an error about the import limits", bad, err)
		}
	}
	c = Defaults()
	if err := c.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

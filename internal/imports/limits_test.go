package imports_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/imports"
	"portfolio/internal/testkit"
)

// member is a team member, given the right to create points of sale (as
// in issue 42's report) by boundedFixture.
const member = "team_member@demo.test"

// heapBound is how much the heap may grow while a bomb is refused.
const heapBound = 100 << 20

// part is one entry of a workbook written by rawWorkbook: its text is
// written by write, so a part of hundreds of MB never is in memory.
type part struct {
	name  string
	write func(w io.Writer) error
}

// text is a part holding s.
func text(name, s string) part {
	return part{name, func(w io.Writer) error { _, err := io.WriteString(w, s); return err }}
}

// repeated is a part of head, then unit written n times, then tail.
func repeated(name, head, unit string, n int, tail string) part {
	return part{name, func(w io.Writer) error {
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		chunk := strings.Repeat(unit, max(1, (64<<10)/len(unit)))
		per := len(chunk) / len(unit)
		for n > 0 {
			k := min(n, per)
			if _, err := io.WriteString(w, chunk[:k*len(unit)]); err != nil {
				return err
			}
			n -= k
		}
		_, err := io.WriteString(w, tail)
		return err
	}}
}

const (
	xlsxContentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`
	xlsxRels         = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
	xlsxWorkbookRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`
	sheetHead        = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
	sheetTail        = `</sheetData></worksheet>`
	// headingRow names two columns of a point of sale.
	headingRow = `<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Branch number</t></is></c></row>`
	// bombRow is the row a bomb repeats: 55 bytes, no row number.
	bombRow = `<row><c t="inlineStr"><is><t>boom</t></is></c></row>`
)

// workbookXML is the workbook part naming one sheet.
func workbookXML(sheet string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="` +
		sheet + `" sheetId="1" r:id="rId1"/></sheets></workbook>`
}

// rawWorkbook writes an XLSX file part by part with archive/zip, deflated
// fast: the parts a workbook needs (one sheet, named sheet), then extra,
// whose sheet1 part (if any) is the sheet's.
func rawWorkbook(t testing.TB, sheet string, extra ...part) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	parts := append([]part{text("[Content_Types].xml", xlsxContentTypes), text("_rels/.rels", xlsxRels),
		text("xl/workbook.xml", workbookXML(sheet)), text("xl/_rels/workbook.xml.rels", xlsxWorkbookRels)}, extra...)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.write(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lyingWorkbook is a workbook whose sheet's zip entry declares 1 KB
// unpacked while it unpacks to 64 MB.
func lyingWorkbook(t testing.TB) []byte {
	t.Helper()
	var sheet bytes.Buffer
	if err := repeated("", sheetHead+headingRow, bombRow, (64<<20)/len(bombRow), sheetTail).write(&sheet); err != nil {
		t.Fatal(err)
	}
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	fw.Write(sheet.Bytes())
	fw.Close()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range []part{text("[Content_Types].xml", xlsxContentTypes), text("_rels/.rels", xlsxRels),
		text("xl/workbook.xml", workbookXML("Sheet1")), text("xl/_rels/workbook.xml.rels", xlsxWorkbookRels)} {
		w, _ := zw.Create(p.name)
		p.write(w)
	}
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(sheet.Bytes()),
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(packed.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sheetPart is the first sheet: the heading row, then rows.
func sheetPart(rows string) part {
	return text("xl/worksheets/sheet1.xml", sheetHead+headingRow+rows+sheetTail)
}

// limitRows are n rows of a point of sale's name and branch number.
func limitRows(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>Limited %d</t></is></c><c r="B%d" t="inlineStr"><is><t>L-%d</t></is></c></row>`, i+2, i+2, i, i+2, i)
	}
	return b.String()
}

// refusal is the answer of a refused upload.
type refusal struct {
	Detail any    `json:"detail"`
	Code   string `json:"code"`
}

// boundedFixture is the imports fixture with the team member allowed to
// create points of sale.
func boundedFixture(t *testing.T, d *db.DB) *fixture {
	f := newFixture(t, d)
	if _, err := d.ExecContext(context.Background(), `UPDATE crud SET crud_c = 1
		WHERE role_id = (SELECT role_id FROM role WHERE role_code = 'team_member') AND tablegroup_id = 1`); err != nil {
		t.Fatal(err)
	}
	return f
}

// kept counts the imports and the points of sale.
func (f *fixture) kept(t testing.TB) [2]int64 {
	return [2]int64{f.one(t, `SELECT COUNT(*) FROM data_import`), f.posCount(t)}
}

// refused uploads data as the team member in lang and checks that it is
// refused with status and code, a detail that is a text holding each of
// want, and nothing kept.
func (f *fixture) refused(t *testing.T, lang, name string, data []byte, status int, code string, want ...string) {
	t.Helper()
	before := f.kept(t)
	start := time.Now()
	res := f.upload(t, member, lang, "pos", name, data)
	took := time.Since(start)
	if res.Status != status {
		t.Fatalf("%s (%d KB): %d %s, want %d", name, len(data)>>10, res.Status, res.Body, status)
	}
	var r refusal
	res.JSON(t, &r)
	detail, ok := r.Detail.(string)
	if status == http.StatusRequestEntityTooLarge && (!ok || detail == "" || r.Code != code) {
		t.Fatalf("%s: detail %#v code %q, want a text and code %q", name, r.Detail, r.Code, code)
	}
	for _, w := range want {
		if !strings.Contains(string(res.Body), w) {
			t.Errorf("%s: %s lacks %q", name, res.Body, w)
		}
	}
	if after := f.kept(t); after != before {
		t.Errorf("%s: imports and points of sale %v before, %v after: something was kept", name, before, after)
	}
	t.Logf("%s: %d KB refused with %d %s in %v", name, len(data)>>10, res.Status, r.Code, took.Round(time.Millisecond))
}

// TestBoundedImports: an upload past a limit (decision 0067) is refused
// with 413, a text in the user's language naming the limit, and nothing is
// kept: a decompression bomb from its zip directory, a sheet past the row
// or the cell cap as soon as the reader crosses it, a CSV file likewise,
// and the contract workbook too.
func TestBoundedImports(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := boundedFixture(t, d)
		svc := f.ta.Imports

		t.Run("the settings reach the service", func(t *testing.T) {
			want := imports.DefaultLimits()
			c := config.Defaults().Imports
			if got := (imports.Limits{MaxRows: c.MaxRows, MaxCells: c.MaxCells, MaxUnpackedBytes: c.MaxUnpackedBytes, MaxPartBytes: c.MaxPartBytes}); got != want {
				t.Errorf("config defaults %+v, the service's %+v", got, want)
			}
			if got := imports.LimitsOf(svc); got != want {
				t.Errorf("the app's import service has %+v, want %+v", got, want)
			}
		})

		t.Run("a workbook within the limits is read", func(t *testing.T) {
			res := f.upload(t, member, "en", "pos", "small.xlsx", rawWorkbook(t, "Sheet1", sheetPart(limitRows(3))))
			if res.Status != http.StatusCreated || !strings.Contains(string(res.Body), `"rows":3`) {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
		})

		t.Run("a decompression bomb is refused from its directory", func(t *testing.T) {
			// 130 MB of rows deflated to about 1 MB: past the default 128 MB a part.
			bomb := rawWorkbook(t, "Sheet1", repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow, bombRow, (130<<20)/len(bombRow), sheetTail))
			f.refused(t, "en", "bomb.xlsx", bomb, http.StatusRequestEntityTooLarge, "part_too_large", "128 MB")
			f.refused(t, "de", "bomb.xlsx", bomb, http.StatusRequestEntityTooLarge, "part_too_large", "entpackt größer als 128 MB")
			f.refused(t, "fr", "bomb.xlsx", bomb, http.StatusRequestEntityTooLarge, "part_too_large", "décompress")
			// Three parts of 3 MB each past 8 MB unpacked together.
			imports.SetLimits(svc, imports.Limits{MaxUnpackedBytes: 8 << 20, MaxPartBytes: 4 << 20})
			defer imports.SetLimits(svc, imports.Limits{})
			three := rawWorkbook(t, "Sheet1", sheetPart(limitRows(3)),
				repeated("xl/worksheets/sheet2.xml", sheetHead, bombRow, (3<<20)/len(bombRow), sheetTail),
				repeated("xl/worksheets/sheet3.xml", sheetHead, bombRow, (3<<20)/len(bombRow), sheetTail),
				repeated("xl/worksheets/sheet4.xml", sheetHead, bombRow, (3<<20)/len(bombRow), sheetTail))
			f.refused(t, "en", "three.xlsx", three, http.StatusRequestEntityTooLarge, "unpacked_too_large", "unpacks to more than 8 MB")
		})

		t.Run("a zip entry unpacking past the size it declares is no spreadsheet", func(t *testing.T) {
			f.refused(t, "en", "lying.xlsx", lyingWorkbook(t), http.StatusUnprocessableEntity, "", "not a spreadsheet")
		})

		t.Run("a sheet past the row cap", func(t *testing.T) {
			imports.SetLimits(svc, imports.Limits{MaxRows: 50})
			defer imports.SetLimits(svc, imports.Limits{})
			res := f.upload(t, member, "en", "pos", "fifty.xlsx", rawWorkbook(t, "Sheet1", sheetPart(limitRows(50))))
			if res.Status != http.StatusCreated {
				t.Fatalf("50 rows at a cap of 50: %d %s", res.Status, res.Body)
			}
			f.refused(t, "en", "fifty-one.xlsx", rawWorkbook(t, "Sheet1", sheetPart(limitRows(51))), http.StatusRequestEntityTooLarge, "too_many_rows",
				"more than 50 rows")
			// A real workbook (excelize's), the limit written in German.
			imports.SetLimits(svc, imports.Limits{MaxRows: 2000})
			rows := [][]any{posHeadings}
			for i := range 2001 {
				rows = append(rows, []any{"Nordhandel Retail GmbH", fmt.Sprint("P", i), fmt.Sprint(i), 2020, "Udo Unique", "2020-01-01"})
			}
			f.refused(t, "de", "many.xlsx", workbook(t, rows), http.StatusRequestEntityTooLarge, "too_many_rows", "mehr als 2.000 Zeilen")
			// Rows numbered past the last a spreadsheet has: the reader
			// would stop at every number between.
			far := rawWorkbook(t, "Sheet1", sheetPart(`<row r="50000000"><c r="A50000000"><v>1</v></c></row>`))
			f.refused(t, "en", "far.xlsx", far, http.StatusRequestEntityTooLarge, "too_many_rows")
		})

		t.Run("a sheet past the cell cap", func(t *testing.T) {
			imports.SetLimits(svc, imports.Limits{MaxCells: 100})
			defer imports.SetLimits(svc, imports.Limits{})
			// 2 headings + 49 rows of 2 cells = 100 cells.
			res := f.upload(t, member, "en", "pos", "cells.xlsx", rawWorkbook(t, "Sheet1", sheetPart(limitRows(49))))
			if res.Status != http.StatusCreated {
				t.Fatalf("100 cells at a cap of 100: %d %s", res.Status, res.Body)
			}
			f.refused(t, "fr", "cells.xlsx", rawWorkbook(t, "Sheet1", sheetPart(limitRows(50))), http.StatusRequestEntityTooLarge, "too_many_cells",
				"plus de 100 cellules")
		})

		t.Run("a CSV file past the row cap", func(t *testing.T) {
			imports.SetLimits(svc, imports.Limits{MaxRows: 50})
			defer imports.SetLimits(svc, imports.Limits{})
			csv := func(n int) []byte {
				var b strings.Builder
				b.WriteString("Name;Branch number\r\n")
				for i := range n {
					fmt.Fprintf(&b, "Csv %d;C-%d\r\n", i, i)
				}
				return []byte(b.String())
			}
			res := f.upload(t, member, "en", "pos", "fifty.csv", csv(50))
			if res.Status != http.StatusCreated {
				t.Fatalf("50 CSV rows at a cap of 50: %d %s", res.Status, res.Body)
			}
			f.refused(t, "en", "fifty-one.csv", csv(51), http.StatusRequestEntityTooLarge, "too_many_rows", "more than 50 rows")
			// Windows-1252 (ü as one byte), read as a stream too.
			f.refused(t, "de", "latin.csv", bytes.ReplaceAll(csv(60), []byte("Csv"), []byte("M\xfcller")), http.StatusRequestEntityTooLarge,
				"too_many_rows", "mehr als 50 Zeilen")
		})

		t.Run("a CSV file past the byte limits", func(t *testing.T) {
			// One line of 2 MB: the CSV reader would hold it whole, and
			// every one of its million fields.
			line := "Name;Branch number\n" + strings.Repeat(";", 2<<20) + "\n"
			f.refused(t, "en", "wide.csv", []byte(line), http.StatusRequestEntityTooLarge, "line_too_long", "longer than 1 MB")
			imports.SetLimits(svc, imports.Limits{MaxPartBytes: 64 << 10})
			defer imports.SetLimits(svc, imports.Limits{})
			big := "Name;Branch number\n" + strings.Repeat("Big;B-1\n", 10_000)
			f.refused(t, "en", "big.csv", []byte(big), http.StatusRequestEntityTooLarge, "csv_too_large", "larger than 64 KB")
		})

		t.Run("the contract workbook", func(t *testing.T) {
			counts := func() [3]int64 {
				return [3]int64{f.one(t, `SELECT COUNT(*) FROM data_import`), f.one(t, `SELECT COUNT(*) FROM contract`), f.one(t, `SELECT COUNT(*) FROM contractaction`)}
			}
			post := func(lang, path string, data []byte) (int, refusal, string) {
				body, ct := fileForm(t, data)
				res := f.ta.Do("POST", path, f.ta.Token(admin), body, "Content-Type", ct, "Accept-Language", lang)
				var r refusal
				json.Unmarshal(res.Body, &r)
				return res.Status, r, string(res.Body)
			}
			before := counts()
			bomb := rawWorkbook(t, "Contracts", repeated("xl/worksheets/sheet1.xml", sheetHead, bombRow, (130<<20)/len(bombRow), sheetTail))
			for _, path := range []string{"/imports-contract/validate", "/imports-contract/commit"} {
				status, r, body := post("en", path, bomb)
				if status != http.StatusRequestEntityTooLarge || r.Code != "part_too_large" || !strings.Contains(body, "128 MB") {
					t.Errorf("%s, a bomb: %d %s", path, status, body)
				}
			}
			imports.SetLimits(svc, imports.Limits{MaxRows: 3})
			defer imports.SetLimits(svc, imports.Limits{})
			var rows strings.Builder
			rows.WriteString(`<row r="1"><c r="A1" t="inlineStr"><is><t>Contract key</t></is></c><c r="B1" t="inlineStr"><is><t>contract_name</t></is></c></row>`)
			for i := range 4 {
				fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>K%d</t></is></c><c r="B%d" t="inlineStr"><is><t>Four</t></is></c></row>`, i+2, i+2, i, i+2)
			}
			four := rawWorkbook(t, "Verträge", text("xl/worksheets/sheet1.xml", sheetHead+rows.String()+sheetTail))
			for _, path := range []string{"/imports-contract/validate", "/imports-contract/commit"} {
				status, r, body := post("de", path, four)
				if status != http.StatusRequestEntityTooLarge || r.Code != "too_many_rows" || !strings.Contains(body, "Blatt „Verträge“ hat mehr als 3 Zeilen") {
					t.Errorf("%s, four contracts at a cap of 3: %d %s", path, status, body)
				}
			}
			if after := counts(); after != before {
				t.Errorf("imports, contracts, deadlines %v before, %v after", before, after)
			}
		})
	})
}

// TestBoundedImportMemory: bombs that passed the old reader (issue 42:
// 286 KB unpacking to 98 MB and 2,000,000 rows, accepted after 13.9 s) and
// others excelize would build hundreds of MB from are refused at the
// default limits while the heap grows by less than heapBound, nothing
// kept. The heap in use is sampled while each upload is served; time is
// logged, never asserted.
func TestBoundedImportMemory(t *testing.T) {
	sheet := func(rows part) []byte { return rawWorkbook(t, "Sheet1", rows) }
	bombs := []struct {
		name   string
		data   []byte
		status int
		code   string
	}{
		{"part past 128 MB", sheet(repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow, bombRow, (130<<20)/len(bombRow), sheetTail)),
			413, "part_too_large"},
		{"issue 42: 2,000,000 rows", sheet(repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow, bombRow, 2_000_000, sheetTail)),
			413, "too_many_rows"},
		{"1,000,000 rows, read until the cap", sheet(repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow, bombRow, 1_000_000, sheetTail)),
			413, "too_many_rows"},
		{"rows numbered up to 50,000,000", sheet(text("xl/worksheets/sheet1.xml", sheetHead+headingRow+`<row r="50000000"><c><v>1</v></c></row>`+sheetTail)),
			413, "too_many_rows"},
		{"one row of 4,000,000 cells", sheet(repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow+"<row>", `<c><v>1</v></c>`, 4_000_000, "</row>"+sheetTail)),
			413, "row_too_wide"},
		{"3,000,000 shared texts", rawWorkbook(t, "Sheet1", sheetPart(`<row><c t="s"><v>0</v></c></row>`),
			repeated("xl/sharedStrings.xml", `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`, `<si><t>x</t></si>`, 3_000_000, `</sst>`)),
			413, "too_many_texts"},
		{"15 MB of styles", rawWorkbook(t, "Sheet1", sheetPart(`<row><c><v>1</v></c></row>`),
			repeated("xl/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>`, `<xf numFmtId="0"/>`, (15<<20)/18, `</cellXfs></styleSheet>`)),
			413, "extras_too_large"},
		{"a text of 16 MB", sheet(repeated("xl/worksheets/sheet1.xml", sheetHead+headingRow+`<row><c t="inlineStr"><is><t>`, "a", 16<<20, `</t></is></c></row>`+sheetTail)),
			413, "text_too_long"},
		{"64 MB of pictures", rawWorkbook(t, "Sheet1", sheetPart(limitRows(2)), repeated("xl/media/image1.png", "", "\x00", 64<<20, "")),
			413, "extras_too_large"},
		{"a sheet in UTF-16", sheet(text("xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-16LE"?>`+utf16le(sheetHead[len(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`):]+headingRow+sheetTail))),
			422, ""},
		{"a document type", sheet(text("xl/worksheets/sheet1.xml", `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">]>`+sheetHead[len(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`):]+headingRow+sheetTail)),
			422, ""},
		{"20,000 empty parts", manyParts(t, 20_000), 413, "extras_too_large"},
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := boundedFixture(t, d)
		f.ta.Token(member) // the login's password hash is no part of any refusal
		for _, b := range bombs {
			var status int
			grew, total := heapGrowth(func() {
				before := f.kept(t)
				res := f.upload(t, member, "en", "pos", "bomb.xlsx", b.data)
				status = res.Status
				var r refusal
				json.Unmarshal(res.Body, &r)
				if res.Status != b.status || r.Code != b.code {
					t.Errorf("%s: %d %s, want %d %s", b.name, res.Status, res.Body, b.status, b.code)
				}
				if after := f.kept(t); after != before {
					t.Errorf("%s: kept %v, before %v", b.name, after, before)
				}
			})
			t.Logf("%s: %d KB answered %d; the heap grew by %d MB at most (%d MB allocated in all)", b.name, len(b.data)>>10, status, grew>>20, total>>20)
			if grew > heapBound {
				t.Errorf("%s: the heap grew by %d MB while it was refused; the bound is %d MB", b.name, grew>>20, heapBound>>20)
			}
		}
	})
}

// utf16le is s in UTF-16, little endian (ASCII only).
func utf16le(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte(s[i])
		b.WriteByte(0)
	}
	return b.String()
}

// manyParts is a workbook with n empty parts besides its own.
func manyParts(t testing.TB, n int) []byte {
	extra := []part{sheetPart(limitRows(2))}
	for i := range n {
		extra = append(extra, text(fmt.Sprintf("xl/empty/%d.bin", i), ""))
	}
	return rawWorkbook(t, "Sheet1", extra...)
}

// heapGrowth runs fn while sampling the heap in use, and answers how far
// it grew above what it held before (after a collection) and the bytes
// allocated meanwhile.
func heapGrowth(fn func()) (grew, allocated int64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	peak.Store(before.HeapInuse)
	stop, done := make(chan struct{}), make(chan struct{})
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse > peak.Load() {
			peak.Store(m.HeapInuse)
		}
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			sample()
		}
	}()
	fn()
	close(stop)
	<-done
	sample()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return int64(peak.Load()) - int64(before.HeapInuse), int64(after.TotalAlloc - before.TotalAlloc)
}

package imports

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"portfolio/internal/apperr"
	"portfolio/internal/platform/letter"
)

// Limits bound what one uploaded file makes the server read (decision
// 0067). A file past any of them is refused with 413 as soon as the limit
// is crossed, before anything is kept.
type Limits struct {
	// MaxRows is the most rows below the headings of one sheet (a CSV
	// file is one sheet).
	MaxRows int
	// MaxCells is the most cells of one sheet, as read: a row's cells up
	// to its last filled one, the headings included. It also bounds the
	// texts of a workbook's shared strings table, which excelize indexes
	// whole.
	MaxCells int
	// MaxUnpackedBytes is the most bytes the parts of a workbook unpack to
	// together (excelize's UnzipSizeLimit).
	MaxUnpackedBytes int64
	// MaxPartBytes is the most bytes one part of a workbook (a sheet, the
	// shared strings) unpacks to, and the largest CSV file.
	MaxPartBytes int64
}

// DefaultLimits are the limits of a service given none (config.Defaults
// holds the same): room for the largest real imports, 200,000 rows of ten
// columns or 50,000 of forty.
func DefaultLimits() Limits {
	return Limits{MaxRows: 200_000, MaxCells: 2_000_000, MaxUnpackedBytes: 256 << 20, MaxPartBytes: 128 << 20}
}

// orDefaults is l with each limit not set taken from DefaultLimits.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	if l.MaxRows <= 0 {
		l.MaxRows = d.MaxRows
	}
	if l.MaxCells <= 0 {
		l.MaxCells = d.MaxCells
	}
	if l.MaxUnpackedBytes <= 0 {
		l.MaxUnpackedBytes = d.MaxUnpackedBytes
	}
	if l.MaxPartBytes <= 0 {
		l.MaxPartBytes = d.MaxPartBytes
	}
	return l
}

// Bounds that are no settings: the spreadsheet format's own, and what
// excelize holds in memory whatever it is told (decision 0067).
const (
	// maxParts is the most entries a workbook's zip directory may list:
	// Go's zip reader and excelize keep one record (and one map slot) per
	// entry before any size is checked. A workbook has a few dozen.
	maxParts = 10_000
	// spillBytes is excelize's UnzipXMLSizeLimit: a worksheet or the
	// shared strings unpacking to more are copied to a temporary file and
	// read from there as a stream; smaller ones are held in memory. It is
	// no refusal: the limits that refuse are checked before excelize
	// opens the file. Small, because the shared strings held in memory are
	// decoded whole, at about 450 bytes a text.
	spillBytes = 1 << 20
	// heldBytes bounds what excelize holds in memory whatever its options:
	// every part but the worksheets and shared strings it spills (styles,
	// the workbook, pictures, charts, pivot caches, …), together.
	heldBytes = 32 << 20
	// heldElements bounds the XML elements of those parts together (but
	// the worksheets', which are read row by row): the styles, the
	// workbook and the shared strings held in memory are decoded whole,
	// at a few hundred bytes an element.
	heldElements = 250_000
	// maxToken is the longest text, tag, comment or processing
	// instruction of a part's XML (and the longest line of a CSV file):
	// Go's XML decoder holds each whole. A cell holds at most 32,767
	// characters.
	maxToken = 1 << 20
)

// Keys of the limit answers (413); each answer's code is its key's last
// part (too_many_rows), the same with or without the sheet's name.
const (
	keyUnpacked    = "server.imports.unpacked_too_large"
	keyPart        = "server.imports.part_too_large"
	keyExtras      = "server.imports.extras_too_large"
	keyRows        = "server.imports.too_many_rows"
	keyCells       = "server.imports.too_many_cells"
	keyTexts       = "server.imports.too_many_texts"
	keyRowTooWide  = "server.imports.row_too_wide"
	keyTextTooLong = "server.imports.text_too_long"
	keyLineTooLong = "server.imports.line_too_long"
	keyCSVTooLarge = "server.imports.csv_too_large"
)

// limitError is the 413 of a crossed limit; args hold its figures, written
// in the request's language.
func limitError(key string, args map[string]string) error {
	code := strings.TrimSuffix(strings.TrimPrefix(key, "server.imports."), "_in_sheet")
	return apperr.New(apperr.KindTooLarge, key).With(args).WithCode(code)
}

// count writes n grouped in lang (200,000; 200.000; 200 000).
func count(n int, lang string) string { return letter.Number(decimal.NewFromInt(int64(n)), 0, lang) }

// size writes a byte count in whole MB (or KB below one MB).
func size(n int64, lang string) string {
	if n >= 1<<20 {
		return count(int(n>>20), lang) + " MB"
	}
	return count(int(max(n>>10, 1)), lang) + " KB"
}

// reading is one file being read against the limits, with the language
// of the limit messages.
type reading struct {
	Limits
	lang string
}

// tooManyRows is the 413 of a sheet past MaxRows (sheet names it in a
// contract workbook).
func (r reading) tooManyRows(sheet string) error {
	if sheet != "" {
		return limitError(keyRows+"_in_sheet", map[string]string{"sheet": sheet, "limit": count(r.MaxRows, r.lang)})
	}
	return limitError(keyRows, map[string]string{"limit": count(r.MaxRows, r.lang)})
}

// tooManyCells is the 413 of a sheet past MaxCells.
func (r reading) tooManyCells(sheet string) error {
	if sheet != "" {
		return limitError(keyCells+"_in_sheet", map[string]string{"sheet": sheet, "limit": count(r.MaxCells, r.lang)})
	}
	return limitError(keyCells, map[string]string{"limit": count(r.MaxCells, r.lang)})
}

// rowTooWide is the 413 of a row of more cells than a sheet has columns.
func (r reading) rowTooWide() error {
	return limitError(keyRowTooWide, map[string]string{"limit": count(excelize.MaxColumns, r.lang)})
}

// tooRich is the 413 of a workbook holding too much besides its sheets.
func (r reading) tooRich() error { return limitError(keyExtras, nil) }

// errFormat marks a part whose XML no spreadsheet has (a document type
// declaration, another encoding than UTF-8, a broken stream): answered as
// "not a spreadsheet".
var errFormat = errors.New("imports: not a spreadsheet's XML")

// partKind is how excelize reads a part.
type partKind int

const (
	// partHeld: read into memory whole (and, for the styles, the workbook
	// and the relationships, decoded whole).
	partHeld partKind = iota
	// partSheet: a worksheet, read row by row.
	partSheet
	// partStrings: the shared strings table.
	partStrings
)

// kindOf classifies a part by its name exactly as excelize does when it
// unpacks a workbook (lib.go, ReadZipReader).
func kindOf(name string) partKind {
	name = strings.ReplaceAll(name, "\\", "/")
	switch {
	case strings.EqualFold(name, "xl/sharedStrings.xml"):
		return partStrings
	case strings.HasPrefix(strings.ToLower(name), "xl/worksheets/sheet"):
		return partSheet
	}
	return partHeld
}

// isXML reports whether a part is named as XML.
func isXML(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".rels")
}

// checkWorkbook checks an XLSX file against the limits before excelize
// opens it, from its zip directory first (the sizes it declares, which
// Go's zip reader holds every entry to), then by one pass over each part
// (scanXML: rows, cells per row, texts and elements counted, the longest
// token measured; nothing is kept). It refuses what would make excelize hold
// more than the limits allow: a decompression bomb is refused from its
// directory without being unpacked.
func (r reading) checkWorkbook(data []byte) error {
	if bytes.Count(data, []byte("PK\x01\x02")) > maxParts {
		return r.tooRich()
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fileError("server.imports.not_spreadsheet", nil)
	}
	if len(zr.File) > maxParts {
		return r.tooRich()
	}
	var total, held uint64
	for _, zf := range zr.File {
		n := zf.UncompressedSize64
		total += n
		if total > uint64(r.MaxUnpackedBytes) {
			return limitError(keyUnpacked, map[string]string{"limit": size(r.MaxUnpackedBytes, r.lang)})
		}
		if n > uint64(r.MaxPartBytes) {
			return limitError(keyPart, map[string]string{"limit": size(r.MaxPartBytes, r.lang)})
		}
		if kindOf(zf.Name) == partHeld || n <= uint64(r.spill()) {
			if held += n; held > heldBytes {
				return r.tooRich()
			}
		}
	}
	elements := 0
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		if err := r.scanPart(zf, kindOf(zf.Name), &elements); err != nil {
			return err
		}
	}
	return nil
}

// spill is the size above which excelize reads a worksheet or the shared
// strings from a temporary file (UnzipXMLSizeLimit, at most
// UnzipSizeLimit).
func (r reading) spill() int64 { return min(spillBytes, r.MaxUnpackedBytes) }

// options are excelize's options for a file that passed checkWorkbook.
func (r reading) options() excelize.Options {
	return excelize.Options{UnzipSizeLimit: r.MaxUnpackedBytes, UnzipXMLSizeLimit: r.spill()}
}

// scanPart reads one part's XML as a stream and counts what excelize will
// build from it: a worksheet's rows (at most the format's 1,048,576) and
// each row's cells (at most 16,384), the shared strings' texts (at most
// MaxCells), and the elements of the parts decoded whole (added to
// *elements, at most heldElements for all of them).
func (r reading) scanPart(zf *zip.File, kind partKind, elements *int) error {
	rc, err := zf.Open()
	if err != nil {
		return fileError("server.imports.not_spreadsheet", nil)
	}
	defer rc.Close()
	decoded := kind == partHeld || (kind == partStrings && int64(zf.UncompressedSize64) <= r.spill())
	rows, cells, texts := 0, 0, 0
	err = scanXML(rc, isXML(zf.Name), func(local []byte) error {
		if decoded {
			if *elements++; *elements > heldElements {
				return r.tooRich()
			}
		}
		switch kind {
		case partSheet:
			switch string(local) {
			case "row":
				if rows++; rows > excelize.TotalRows {
					return r.tooManyRows("")
				}
				cells = 0
			case "c":
				if cells++; cells > excelize.MaxColumns {
					return r.rowTooWide()
				}
			}
		case partStrings:
			if string(local) == "si" {
				if texts++; texts > r.MaxCells {
					return limitError(keyTexts, map[string]string{"limit": count(r.MaxCells, r.lang)})
				}
			}
		}
		return nil
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errTokenTooLong):
		return limitError(keyTextTooLong, map[string]string{"limit": size(maxToken, r.lang)})
	case errors.Is(err, errFormat):
		return fileError("server.imports.not_spreadsheet", nil)
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	// A broken stream (an entry longer than its directory says, a bad
	// checksum): excelize would read a truncated part.
	return fileError("server.imports.not_spreadsheet", nil)
}

// errTokenTooLong: a token of a part's XML is longer than maxToken.
var errTokenTooLong = errors.New("imports: XML token too long")

// scanXML reads XML from rd without decoding it and calls start with the
// local name (after its prefix) of every start tag, stopping at the first
// error start returns.
//
// strict is for the parts named as XML (.xml, .rels). It holds no more
// than maxToken bytes: a text, tag, comment, CDATA section or processing
// instruction longer than that is errTokenTooLong. It refuses (errFormat)
// what Go's XML decoder would read differently from the bytes scanned: a
// document type declaration (OOXML has none) and an XML declaration
// naming another encoding than UTF-8 (the decoder would switch to it,
// and in UTF-16 no '<' is the byte '<'). Comments and CDATA sections are
// skipped, as the decoder skips them.
//
// Otherwise (a picture, a part of any other name, which excelize decodes
// only if the workbook's relationships name it as a part it reads) it
// counts every '<' before a name byte as a start tag, never fewer than
// the decoder would see, and refuses only an XML declaration of another
// encoding.
func scanXML(rd io.Reader, strict bool, start func(local []byte) error) error {
	br := bufio.NewReaderSize(rd, 64<<10)
	local := make([]byte, 0, 16)
	for {
		// The text up to the next '<'.
		n := 0
		for {
			chunk, err := br.ReadSlice('<')
			if n += len(chunk); strict && n > maxToken+1 {
				return errTokenTooLong
			}
			if err == nil {
				break
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		b, err := br.ReadByte()
		if err != nil {
			return endOfPart(err, strict)
		}
		switch {
		case b == '!' && strict:
			head, _ := br.Peek(7)
			switch {
			case bytes.HasPrefix(head, []byte("--")):
				_, _ = br.Discard(2)
				if _, err := skipPast(br, "-->", false); err != nil {
					return err
				}
			case bytes.HasPrefix(head, []byte("[CDATA[")):
				_, _ = br.Discard(7)
				if _, err := skipPast(br, "]]>", false); err != nil {
					return err
				}
			default:
				return errFormat
			}
		case b == '?':
			if !strict {
				// Only an XML declaration matters here.
				head, _ := br.Peek(4)
				if len(head) < 4 || string(head[:3]) != "xml" || isNameByte(head[3]) {
					continue
				}
			}
			pi, err := skipPast(br, "?>", true)
			if errors.Is(err, errTokenTooLong) && !strict {
				return errFormat
			}
			if err != nil {
				return endOfPart(err, strict)
			}
			if !utf8Declaration(pi) {
				return errFormat
			}
		case b == '/' || !isNameByte(b):
			// An end tag, or no tag: part of the next text's run.
		default:
			if err := br.UnreadByte(); err != nil {
				return err
			}
			if local, err = readLocal(br, local[:0], strict); err != nil {
				return endOfPart(err, strict)
			}
			if err := start(local); err != nil {
				return err
			}
		}
	}
}

// endOfPart is what the end of a part inside markup means: a broken part
// to a strict scan (errFormat), the end to a lenient one.
func endOfPart(err error, strict bool) error {
	if !errors.Is(err, io.EOF) {
		return err
	}
	if strict {
		return errFormat
	}
	return nil
}

// skipPast reads up to and including term, at most maxToken bytes,
// returning what it read when keep is set.
func skipPast(br *bufio.Reader, term string, keep bool) ([]byte, error) {
	var kept, win []byte
	n := 0
	for {
		chunk, err := br.ReadSlice(term[len(term)-1])
		if n += len(chunk); n > maxToken {
			return nil, errTokenTooLong
		}
		if keep {
			kept = append(kept, chunk...)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, eofIsFormat(err)
		}
		// win: the last bytes read, as many as term has.
		win = append(win, chunk[max(0, len(chunk)-len(term)):]...)
		win = win[max(0, len(win)-len(term)):]
		if err == nil && string(win) == term {
			return kept, nil
		}
	}
}

// eofIsFormat turns the end of the stream inside markup into errFormat.
func eofIsFormat(err error) error {
	if errors.Is(err, io.EOF) {
		return errFormat
	}
	return err
}

// readLocal reads an element name and answers its local part (after its
// last ':') in local, cut to its first 16 bytes: no name counted is that
// long. In a strict scan a name is at most maxToken bytes long.
func readLocal(br *bufio.Reader, local []byte, strict bool) ([]byte, error) {
	for n := 0; ; n++ {
		b, err := br.ReadByte()
		if err != nil {
			return nil, err
		}
		switch {
		case !isNameByte(b):
			return local, br.UnreadByte()
		case strict && n >= maxToken:
			return nil, errTokenTooLong
		case b == ':':
			local = local[:0]
		case len(local) < cap(local):
			local = append(local, b)
		}
	}
}

// isNameByte reports whether b may be part of an XML name (any byte of a
// multi-byte character may).
func isNameByte(b byte) bool {
	return b >= 0x80 || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == ':' || b == '.' || b == '-'
}

// utf8Declaration reports whether a processing instruction (its text after
// "<?", up to "?>") leaves Go's XML decoder reading UTF-8: anything but an
// XML declaration, or one without an encoding or naming UTF-8. Target and
// encoding are found as the decoder finds them (encoding/xml: the target
// is a name, procInst reads the encoding).
func utf8Declaration(pi []byte) bool {
	s := strings.TrimSuffix(string(pi), "?>")
	i := 0
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if s[:i] != "xml" {
		return true
	}
	enc := procInst("encoding", s[i:])
	return enc == "" || strings.EqualFold(enc, "utf-8") || strings.EqualFold(enc, "utf8")
}

// procInst is encoding/xml's: the value of param in a processing
// instruction's content.
func procInst(param, s string) string {
	param += "="
	lenp := len(param)
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return ""
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// csvLines feeds a CSV reader and ends a line longer than maxToken: Go's
// CSV reader holds a whole line (and every field of it) before it answers.
// Before each record, Next moves the end to maxToken past where the
// reader stands (plus what its buffer read ahead).
type csvLines struct {
	r     io.Reader
	read  int64
	limit int64
}

// errLineTooLong: a CSV line is longer than maxToken.
var errLineTooLong = errors.New("imports: CSV line too long")

func (c *csvLines) Read(p []byte) (int, error) {
	if c.read >= c.limit {
		return 0, errLineTooLong
	}
	if int64(len(p)) > c.limit-c.read {
		p = p[:c.limit-c.read]
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

// next allows the record starting at offset (the CSV reader's
// InputOffset) up to maxToken bytes, beyond the reader's buffer.
func (c *csvLines) next(offset int64) { c.limit = offset + maxToken + 4096 }

// lineTooLong is the 413 of errLineTooLong.
func (r reading) lineTooLong() error {
	return limitError(keyLineTooLong, map[string]string{"limit": size(maxToken, r.lang)})
}

// csvTooLarge is the 413 of a CSV file larger than a part may unpack to.
func (r reading) csvTooLarge() error {
	return limitError(keyCSVTooLarge, map[string]string{"limit": size(r.csvBytes(), r.lang)})
}

// csvBytes is the largest CSV file: a CSV file is one part, unpacked.
func (r reading) csvBytes() int64 { return min(r.MaxPartBytes, r.MaxUnpackedBytes) }

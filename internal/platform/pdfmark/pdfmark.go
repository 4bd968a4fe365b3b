// Package pdfmark checks PDF files by their structure and writes marked
// copies of them with pdfcpu: a stamp of receipt (date, user, ticket or
// contract) and a signature (the signer's image, name and time) on the
// first page. It never changes its input; it imports nothing of the app.
package pdfmark

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // signature images may be JPEG
	"image/png"
	"io"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// ErrNotPDF is returned for content that is not a readable PDF.
var ErrNotPDF = errors.New("pdfmark: not a PDF document")

// ErrNotImage is returned for a signature that is not a PNG or JPEG image.
var ErrNotImage = errors.New("pdfmark: not an image")

var once sync.Once

// config is a fresh pdfcpu configuration that reads no configuration
// directory and is lenient with the small defects of real-world files.
func config() *model.Configuration {
	once.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return conf
}

// Check reads rs as a PDF (header, cross references, page tree) and
// answers ErrNotPDF unless it is one with at least one page.
func Check(rs io.ReadSeeker) (pages int, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = 0, ErrNotPDF
		}
	}()
	ctx, err := api.ReadValidateAndOptimize(rs, config())
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotPDF, err)
	}
	if ctx.PageCount < 1 {
		return 0, ErrNotPDF
	}
	return ctx.PageCount, nil
}

// clean keeps a stamp's text to what the watermark syntax takes: no line
// breaks (they separate lines), no commas or colons left unescaped.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// Stamp writes to w a copy of the PDF in rs with a boxed stamp of the
// given lines at the top right of the first page.
func Stamp(rs io.ReadSeeker, w io.Writer, lines []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pdfmark: stamp: %v", r)
		}
	}()
	text := make([]string, 0, len(lines))
	for _, l := range lines {
		text = append(text, clean(l))
	}
	wm, err := api.TextWatermark(strings.Join(text, "\n"),
		"font:Helvetica, points:9, pos:tr, off:-12 -12, scale:1 abs, rot:0, opacity:1, fillcolor:#1a237e, bgcolor:#fffde7, border:2 round #1a237e, margins:4",
		true, false, types.POINTS)
	if err != nil {
		return fmt.Errorf("pdfmark: stamp: %w", err)
	}
	return api.AddWatermarks(rs, w, []string{"1"}, wm, config())
}

// Image checks that b is a PNG or JPEG image no larger than maxSide
// pixels on a side and answers it as PNG.
func Image(b []byte, maxSide int) ([]byte, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxSide || cfg.Height > maxSide {
		return nil, ErrNotImage
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, ErrNotImage
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Sign writes to w a copy of the PDF in rs with the signature image
// (PNG) at the bottom right of the first page and the given lines (the
// signer's name and the time) under it.
func Sign(rs io.ReadSeeker, w io.Writer, signature []byte, lines []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pdfmark: sign: %v", r)
		}
	}()
	img, err := api.ImageWatermarkForReader(bytes.NewReader(signature),
		"pos:br, off:-24 48, scale:0.25 rel, rot:0, opacity:1", true, false, types.POINTS)
	if err != nil {
		return fmt.Errorf("pdfmark: sign: %w", err)
	}
	text := make([]string, 0, len(lines))
	for _, l := range lines {
		text = append(text, clean(l))
	}
	caption, err := api.TextWatermark(strings.Join(text, "\n"),
		"font:Helvetica, points:9, pos:br, off:-24 12, scale:1 abs, rot:0, opacity:1, fillcolor:#000000",
		true, false, types.POINTS)
	if err != nil {
		return fmt.Errorf("pdfmark: sign: %w", err)
	}
	m := map[int][]*model.Watermark{1: {img, caption}}
	return api.AddWatermarksSliceMap(rs, w, m, config())
}

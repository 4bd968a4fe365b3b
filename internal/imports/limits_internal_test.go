package imports

import (
	"errors"
	"strings"
	"testing"
)

// TestScanXML: the scan counts the start tags Go's XML decoder would see
// (never fewer), by their local names, skips comments and CDATA as the
// decoder does, and refuses what the decoder would read differently from
// the bytes: a document type, an XML declaration of another encoding.
func TestScanXML(t *testing.T) {
	names := func(t *testing.T, xml string, strict bool) (string, error) {
		t.Helper()
		var got []string
		err := scanXML(strings.NewReader(xml), strict, func(local []byte) error {
			got = append(got, string(local))
			return nil
		})
		return strings.Join(got, " "), err
	}
	for _, c := range []struct {
		xml, want string
	}{
		{`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a><x:row r="1"><c/><c></c></x:row></a>`, "a row c c"},
		{`<a><!-- <row><c/> --><![CDATA[<row>]]><row/></a>`, "a row"},
		{"<a>\n<b\tx='>'/><a.b-c_d/></a>", "a b a.b-c_d"},
		{`<a:b:row/><averyveryverylonglocalname/>`, "row averyveryverylon"},
		{`<?xml-stylesheet href="encoding='utf-16'"?><a/>`, "a"},
		{`<?xml version='1.0' encoding='utf8'?><a/>`, "a"},
	} {
		got, err := names(t, c.xml, true)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.xml, got, err, c.want)
		}
	}
	for _, xml := range []string{
		`<?xml version="1.0" encoding="UTF-16LE"?><a/>`,
		`<?xml"encoding="utf-16"?><a/>`,
		"<?xml\tencoding='ISO-2022-JP'?><a/>",
		`<a/><?xml version="1.0" encoding="utf-16"?>`,
		`<!DOCTYPE a [<!ENTITY x "y">]><a/>`,
		`<a><!-- never closed`,
		`<a`,
	} {
		if _, err := names(t, xml, true); !errors.Is(err, errFormat) {
			t.Errorf("%s: %v, want errFormat", xml, err)
		}
	}
	long := "<a>" + strings.Repeat("x", maxToken+2) + "</a>"
	if _, err := names(t, long, true); !errors.Is(err, errTokenTooLong) {
		t.Errorf("a text past maxToken: %v", err)
	}
	if _, err := names(t, "<a><!--"+strings.Repeat("-", maxToken)+"--></a>", true); !errors.Is(err, errTokenTooLong) {
		t.Errorf("a comment past maxToken: %v", err)
	}
	// Another part (a picture): every '<' before a name counts, comments
	// included, and nothing but an XML declaration of another encoding
	// is refused.
	got, err := names(t, "\x89PNG<!-- <row> --><\x00<!DOCTYPE"+strings.Repeat("z", maxToken+2)+"<c/>", false)
	if err != nil || got != "row c" {
		t.Errorf("lenient: %q, %v", got, err)
	}
	if _, err := names(t, "\x89PNG<?xml encoding='utf-16'?>", false); !errors.Is(err, errFormat) {
		t.Errorf("lenient, another encoding: %v", err)
	}
}

package testkit

import (
	"encoding/base64"
	"io"
	"mime/quotedprintable"
	"strings"
)

func decodeBody(encoding string, r io.Reader) io.Reader {
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, r)
	}
	return r
}

package auth

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
)

// checker collects the field errors of one request, in field order, so a
// form shows every problem at once.
type checker struct {
	fields []apperr.FieldError
	failed map[string]bool
}

func (c *checker) add(f apperr.FieldError) {
	if c.failed == nil {
		c.failed = map[string]bool{}
	}
	if c.failed[f.Field] {
		return // one message per field
	}
	c.failed[f.Field] = true
	c.fields = append(c.fields, f)
}

// required reports whether v is non-blank, recording a "missing" error
// otherwise.
func (c *checker) required(field, v string) bool {
	if strings.TrimSpace(v) == "" {
		c.add(apperr.FieldError{Field: field, Key: "validation.required", Type: "missing"})
		return false
	}
	return true
}

func (c *checker) maxLen(field, v string, n int) {
	if utf8.RuneCountInString(v) > n {
		c.add(apperr.FieldError{Field: field, Key: "validation.max", Type: "max", Args: map[string]string{"length": fmt.Sprint(n)}})
	}
}

func (c *checker) email(field, v string) {
	if v == "" {
		return
	}
	addr, err := mail.ParseAddress(v)
	if err != nil || addr.Address != v || addr.Name != "" {
		c.add(apperr.FieldError{Field: field, Key: "validation.email", Type: "email"})
	}
}

func (c *checker) language(field, v string) {
	if v != "" && !i18n.Supported(v) {
		c.add(apperr.FieldError{Field: field, Key: "validation.one_of", Type: "one_of",
			Args: map[string]string{"values": strings.Join(i18n.Languages, ", ")}})
	}
}

func (c *checker) password(field, v string) {
	if v == "" {
		return
	}
	if f := checkPolicy(field, v); f != nil {
		c.add(*f)
	}
}

// phoneChars are the characters a phone number may contain.
const phoneChars = "0123456789 +-/().,"

func (c *checker) phone(field, v string) {
	c.maxLen(field, v, 50)
	if strings.ContainsFunc(v, func(r rune) bool { return !strings.ContainsRune(phoneChars, r) }) {
		c.add(apperr.FieldError{Field: field, Key: "validation.phone", Type: "phone"})
	}
}

func (c *checker) custom(field, key, typ string) {
	c.add(apperr.FieldError{Field: field, Key: key, Type: typ})
}

// err returns the 422 error, or nil when every field passed.
func (c *checker) err() error {
	if len(c.fields) == 0 {
		return nil
	}
	return apperr.Validation(c.fields...)
}

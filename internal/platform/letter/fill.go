package letter

import (
	"html"
	"regexp"
	"slices"
	"strings"
)

// placeholder is {{name}} in a text template, spaces inside the braces
// allowed: {{ new_amount }}.
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.]+)\s*\}\}`)

// UnknownPlaceholdersError names the placeholders a template uses that the
// letter does not fill: printed as they are, they would reach the other
// party, so the letter is not made.
type UnknownPlaceholdersError struct{ Names []string }

func (e *UnknownPlaceholdersError) Error() string {
	return "letter: unknown placeholders: " + strings.Join(e.Names, ", ")
}

// Fill replaces every placeholder {{name}} of the HTML template with the
// value of vars[name], escaped as HTML text.
func Fill(template string, vars map[string]string) (string, error) {
	var unknown []string
	out := placeholder.ReplaceAllStringFunc(template, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		v, ok := vars[name]
		if !ok {
			if !slices.Contains(unknown, name) {
				unknown = append(unknown, name)
			}
			return m
		}
		return html.EscapeString(v)
	})
	if len(unknown) > 0 {
		return "", &UnknownPlaceholdersError{Names: unknown}
	}
	return out, nil
}

// Placeholders lists the names a template uses, in order of first use.
func Placeholders(template string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatch(template, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}

package validate

import (
	"fmt"
	"slices"
	"strings"

	"portfolio/internal/schema"
)

// Holds evaluates condition c over rec. It is the one implementation of the
// condition semantics of schema.Cond on the server (the browser evaluates
// the same served JSON):
//
//	empty / filled   the field's value is (not) Empty
//	truthy / falsy   filled and not 0 / "0" / "false" (falsy: the opposite)
//	in / not_in      filled and equal (canonical text) to one of the values;
//	                 a multi-select matches when any selected id does;
//	                 not_in holds for empty values
//	options_filled   the list field has at least one option (env.OptionsFilled)
//	all / any        every / at least one sub-condition holds
func Holds(c schema.Cond, rec Record, env *Env) (bool, error) {
	switch c.Op {
	case schema.OpAll, schema.OpAny:
		for _, sub := range c.Conds {
			ok, err := Holds(sub, rec, env)
			if err != nil {
				return false, err
			}
			if ok == (c.Op == schema.OpAny) {
				return ok, nil
			}
		}
		return c.Op == schema.OpAll, nil
	case schema.OpEmpty:
		return Empty(rec[c.Field]), nil
	case schema.OpFilled:
		return !Empty(rec[c.Field]), nil
	case schema.OpTruthy:
		return truthy(rec[c.Field]), nil
	case schema.OpFalsy:
		return !truthy(rec[c.Field]), nil
	case schema.OpIn:
		return inValues(rec[c.Field], c.Values), nil
	case schema.OpNotIn:
		return !inValues(rec[c.Field], c.Values), nil
	case schema.OpOptionsFilled:
		if env == nil || env.OptionsFilled == nil {
			return false, fmt.Errorf("validate: options_filled on %s needs an options lookup", c.Field)
		}
		return env.OptionsFilled(c.Field, rec)
	}
	return false, fmt.Errorf("validate: unknown condition operator %q", c.Op)
}

func truthy(v any) bool {
	if Empty(v) {
		return false
	}
	if l, ok := v.([]int64); ok {
		return len(l) > 0
	}
	switch strings.ToLower(Text(v)) {
	case "0", "false":
		return false
	}
	return true
}

func inValues(v any, values []schema.Literal) bool {
	if Empty(v) {
		return false
	}
	texts := make([]string, len(values))
	for i, l := range values {
		texts[i] = l.String()
	}
	if l, ok := v.([]int64); ok {
		return slices.ContainsFunc(l, func(id int64) bool { return slices.Contains(texts, Text(id)) })
	}
	return slices.Contains(texts, Text(v))
}

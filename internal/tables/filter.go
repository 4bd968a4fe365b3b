package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The limits of a filter. A request over them is refused (422), never
// truncated.
const (
	MaxFilterDepth    = 6    // nesting of and / or / not
	MaxFilterNodes    = 200  // conditions and combinators together
	MaxInValues       = 1000 // values of one in / not_in
	MaxFilterValueLen = 500  // characters of one string value
)

// Op is a filter operator.
type Op string

// The filter operators.
const (
	OpEq         Op = "eq"
	OpNe         Op = "ne"
	OpLt         Op = "lt"
	OpLte        Op = "lte"
	OpGt         Op = "gt"
	OpGte        Op = "gte"
	OpContains   Op = "contains"
	OpStartsWith Op = "starts_with"
	OpIn         Op = "in"
	OpNotIn      Op = "not_in"
	OpIsNull     Op = "is_null"
	OpNotNull    Op = "not_null"
	OpBetween    Op = "between"
)

var knownOps = map[Op]bool{
	OpEq: true, OpNe: true, OpLt: true, OpLte: true, OpGt: true, OpGte: true, OpContains: true,
	OpStartsWith: true, OpIn: true, OpNotIn: true, OpIsNull: true, OpNotNull: true, OpBetween: true,
}

// nodeKind tells a filter node's role.
type nodeKind uint8

const (
	nodeAnd nodeKind = iota
	nodeOr
	nodeNot
	nodeCond
)

// Node is a parsed filter: a combinator with children, or one condition
// whose field and value are not yet checked against a definition.
type Node struct {
	kind  nodeKind
	kids  []*Node
	field string
	op    Op
	value any // as decoded with UseNumber: nil, bool, json.Number, string, []any
}

// FilterError is a malformed or over-limit filter; Key is its message key
// and Args the placeholders.
type FilterError struct {
	Key  string
	Args map[string]string
}

// Error describes the refusal for logs; users see the translated Key.
func (e *FilterError) Error() string { return fmt.Sprintf("filter: %s %v", e.Key, e.Args) }

func filterErr(key string, args ...string) *FilterError {
	m := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		m[args[i]] = args[i+1]
	}
	return &FilterError{Key: key, Args: m}
}

// ParseFilter reads the filter language (decision 0004):
//
//	filter  = null | {} | [cond, ...]     (an array is an "and")
//	        | {"and": [filter, ...]} | {"or": [filter, ...]} | {"not": filter}
//	        | {"field": name, "op": op, "value": v}
//
// It checks the shape and the limits only; Check resolves fields and types.
// A nil Node means "no filter"; so does an empty object, which the
// specification's browser sends for a list without conditions.
func ParseFilter(raw json.RawMessage) (*Node, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, filterErr("server.tables.filter.malformed", "reason", "not JSON")
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return nil, nil
	}
	p := parser{}
	n, err := p.node(v, 1)
	if err != nil {
		return nil, err
	}
	return n, nil
}

type parser struct{ nodes int }

func (p *parser) count() error {
	p.nodes++
	if p.nodes > MaxFilterNodes {
		return filterErr("server.tables.filter.too_big", "max", fmt.Sprint(MaxFilterNodes))
	}
	return nil
}

func (p *parser) node(v any, depth int) (*Node, error) {
	if depth > MaxFilterDepth {
		return nil, filterErr("server.tables.filter.too_deep", "max", fmt.Sprint(MaxFilterDepth))
	}
	if err := p.count(); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case []any:
		return p.list(nodeAnd, x, depth)
	case map[string]any:
		return p.object(x, depth)
	}
	return nil, filterErr("server.tables.filter.malformed", "reason", "a condition must be an object or an array")
}

func (p *parser) list(kind nodeKind, items []any, depth int) (*Node, error) {
	if len(items) > MaxFilterNodes {
		return nil, filterErr("server.tables.filter.too_big", "max", fmt.Sprint(MaxFilterNodes))
	}
	n := &Node{kind: kind, kids: make([]*Node, 0, len(items))}
	for _, it := range items {
		kid, err := p.node(it, depth+1)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, kid)
	}
	return n, nil
}

func (p *parser) object(m map[string]any, depth int) (*Node, error) {
	for _, k := range []string{"and", "or"} {
		if sub, ok := m[k]; ok {
			items, isList := sub.([]any)
			if len(m) != 1 || !isList {
				return nil, filterErr("server.tables.filter.malformed", "reason", `"`+k+`" takes a list and nothing else`)
			}
			kind := nodeAnd
			if k == "or" {
				kind = nodeOr
			}
			return p.list(kind, items, depth)
		}
	}
	if sub, ok := m["not"]; ok {
		if len(m) != 1 {
			return nil, filterErr("server.tables.filter.malformed", "reason", `"not" takes one condition and nothing else`)
		}
		kid, err := p.node(sub, depth+1)
		if err != nil {
			return nil, err
		}
		return &Node{kind: nodeNot, kids: []*Node{kid}}, nil
	}
	return p.cond(m)
}

func (p *parser) cond(m map[string]any) (*Node, error) {
	for k := range m {
		if k != "field" && k != "op" && k != "value" {
			return nil, filterErr("server.tables.filter.malformed", "reason", "unknown member "+quoteShort(k))
		}
	}
	field, ok1 := m["field"].(string)
	op, ok2 := m["op"].(string)
	if !ok1 || !ok2 || field == "" {
		return nil, filterErr("server.tables.filter.malformed", "reason", `a condition needs "field" and "op"`)
	}
	if !knownOps[Op(op)] {
		return nil, filterErr("server.tables.filter.unknown_op", "op", quoteShort(op))
	}
	n := &Node{kind: nodeCond, field: field, op: Op(op), value: m["value"]}
	if err := checkValueShape(n); err != nil {
		return nil, err
	}
	return n, nil
}

// checkValueShape checks the value's shape against the operator and the
// size limits, before any definition is consulted.
func checkValueShape(n *Node) error {
	items, isList := n.value.([]any)
	switch n.op {
	case OpIsNull, OpNotNull:
		if n.value != nil {
			return filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
		}
		return nil
	case OpIn, OpNotIn:
		if !isList {
			return filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
		}
		if len(items) > MaxInValues {
			return filterErr("server.tables.filter.too_many_values", "max", fmt.Sprint(MaxInValues))
		}
	case OpBetween:
		if !isList || len(items) != 2 {
			return filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
		}
	default:
		if isList || n.value == nil {
			return filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
		}
		items = []any{n.value}
	}
	for _, it := range items {
		switch x := it.(type) {
		case string:
			if utf8.RuneCountInString(x) > MaxFilterValueLen {
				return filterErr("server.tables.filter.too_long", "max", fmt.Sprint(MaxFilterValueLen))
			}
		case json.Number, bool, int64, int, float64:
		default:
			return filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
		}
	}
	return nil
}

// quoteShort quotes a request string for a message, shortened.
func quoteShort(s string) string {
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:60]) + "…"
	}
	return `"` + strings.ToValidUTF8(s, "") + `"`
}

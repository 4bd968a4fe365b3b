package tables

import (
	"context"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// The engine knows no domain rules. Modules add theirs through hooks,
// registered while the program is wired (before it serves; the hooks are
// read without locking afterwards):
//
//   - OnWrite: values a module computes before a row of an entity is
//     stored (a user's normalised e-mail, a hashed password);
//   - OnLink: a module's check on the links of one relation;
//   - OnChoices: a module's limits on the values a caller may choose in
//     list fields (external users' locked groups, the ticket limits).

// Hook adds what the definitions cannot say to the writes of one entity:
// module columns marked Internal and values the engine must transform
// before storing. Hooks run inside the write's transaction, after
// validation, with the values about to be written.
type Hook interface {
	// BeforeWrite may change or add column values in w.Values.
	BeforeWrite(ctx context.Context, w *WriteContext) error
}

// HookFunc is a Hook made of a function.
type HookFunc func(ctx context.Context, w *WriteContext) error

// BeforeWrite calls f.
func (f HookFunc) BeforeWrite(ctx context.Context, w *WriteContext) error { return f(ctx, w) }

// WriteContext is one create or update as a hook sees it.
type WriteContext struct {
	Entity   string
	Creating bool
	// ID is the record's key (0 on create).
	ID int64
	// Values are the columns about to be written (only the changed ones on
	// an update); a hook may add columns, also read-only ones it derives.
	Values validate.Record
	// Record is the whole record as it will be: the stored values with the
	// changes applied (read it, change Values).
	Record validate.Record
	// Stored is the record as it was (nil on create).
	Stored validate.Record
	// Tx is the write's transaction, for what the hook reads or writes
	// beside the row (through the module API or Scoped sources).
	Tx *db.Tx

	later []func(context.Context) error
}

// Later queues what the hook writes beside the row (a timeline entry, a
// stamped copy) to run right after the row itself is stored, in the same
// transaction. Writing the row first keeps every transaction's writes in
// one order (the row's table before history): on PostgreSQL each
// statement bumps its table's data_generation row, and a move writing its
// history before its ticket deadlocked with a create writing them the
// other way round (found by the crash test, docs/reliability.md). In the
// batched creates (imports, CreateManyIn) the queued functions run once
// the batch's rows are inserted, each with ID set to its row's new key.
func (w *WriteContext) Later(fn func(context.Context) error) { w.later = append(w.later, fn) }

// runLater runs the queued functions in order.
func (w *WriteContext) runLater(ctx context.Context) error {
	for _, fn := range w.later {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	w.later = nil
	return nil
}

// OnWrite registers a write hook of entity. Several modules may hook one
// entity (the contracts module a contract's deadlines, the invoices module
// its statements' periods): the hooks run in the order they were
// registered, each seeing what the ones before it added to Values.
func (e *Engine) OnWrite(entity string, h Hook) {
	if e.hooks == nil {
		e.hooks = map[string]Hook{}
	}
	if first, ok := e.hooks[entity]; ok {
		h = hookChain{first, h}
	}
	e.hooks[entity] = h
}

// hookChain runs two hooks of one entity in order.
type hookChain [2]Hook

func (c hookChain) BeforeWrite(ctx context.Context, w *WriteContext) error {
	for _, h := range c {
		if err := h.BeforeWrite(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// Prepare runs the Prepare of each hook that has one.
func (c hookChain) Prepare(ctx context.Context, w *WriteContext) error {
	for _, h := range c {
		if p, ok := h.(Preparer); ok {
			if err := p.Prepare(ctx, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteHook is told about one deleted record of an entity inside the
// delete's transaction, right after the row and its history row are gone
// and written: a module keeps a value it derives from the entity's rows
// current (a contract's end reached by its deadlines). An error rolls the
// delete back. Rows removed by a cascade of their owner's delete are not
// told: their owner is gone with them.
type DeleteHook func(ctx context.Context, d *DeleteContext) error

// DeleteContext is one delete as a DeleteHook sees it.
type DeleteContext struct {
	Entity string
	ID     int64
	// Stored is the record as it was.
	Stored validate.Record
	// Tx is the delete's transaction.
	Tx *db.Tx
}

// OnDelete registers a delete hook of entity; several run in the order
// they were registered.
func (e *Engine) OnDelete(entity string, h DeleteHook) {
	if e.deleteHooks == nil {
		e.deleteHooks = map[string][]DeleteHook{}
	}
	e.deleteHooks[entity] = append(e.deleteHooks[entity], h)
}

// ChoiceRule limits what a caller may choose in one list field: the
// choices the options action offers, the values a write accepts (422
// validation.not_available otherwise), options_filled, and the value a
// locked field is pre-filled with on create. A rule that does not concern
// the field answers the zero ChoiceLimit.
type ChoiceRule func(q ChoiceQuery) ChoiceLimit

// ChoiceQuery is one list field as a ChoiceRule sees it.
type ChoiceQuery struct {
	// Caller is who writes (never nil).
	Caller *auth.Principal
	// Entity is the entity written, Field its list field, Target the
	// entity the field references.
	Entity *schema.Entity
	Field  *schema.Field
	Target *schema.Entity
}

// ChoiceLimit is what a ChoiceRule decides.
type ChoiceLimit struct {
	// None: the caller may choose nothing at all.
	None bool
	// Where are conditions on the target's columns that every choice meets.
	Where []Match
	// Prefill is the value the field is pre-filled with, and locked to, on
	// create (0: none). The served definition shows it read-only.
	Prefill int64
}

// IsZero reports whether the limit leaves the field alone.
func (l ChoiceLimit) IsZero() bool { return !l.None && len(l.Where) == 0 && l.Prefill == 0 }

// Match is "column of the target row is one of Values" (one value: equal).
type Match struct {
	Column string
	Values []any
}

// OnChoices registers a choice rule for the list fields of entity, or of
// every entity when entity is "". For one field, the rules of its own
// entity come first: when one of them limits the field, the general rules
// do not apply to it (the ticket limits replace the team limits of
// external users on a ticket's team field); otherwise every general rule
// applies.
func (e *Engine) OnChoices(entity string, r ChoiceRule) {
	if e.choiceRules == nil {
		e.choiceRules = map[string][]ChoiceRule{}
	}
	e.choiceRules[entity] = append(e.choiceRules[entity], r)
}

// Preparer is an optional second method of a Hook: values a module fills
// in before the record is validated (a ticket's deadlines from its board's
// default values, so that the required check sees them). Prepare may set
// fields of w.Record that are empty; w.Values is nil and w.Stored is the
// stored record (nil on create).
type Preparer interface {
	Prepare(ctx context.Context, w *WriteContext) error
}

// Committed is one write of a record as the engine tells its commit
// listeners, after the transaction that wrote it has committed.
type Committed struct {
	Entity string
	ID     int64
	// Action is "create", "update" or "delete".
	Action string
}

// CommitListener is told about every committed create, update and delete
// of the engine's writes (generic and module writes alike).
type CommitListener func(Committed)

// OnCommitted registers a listener for committed writes (the live event
// stream). A rolled-back write is never told. Listeners run on the writing
// goroutine right after the COMMIT and must not block.
func (e *Engine) OnCommitted(l CommitListener) { e.committed = append(e.committed, l) }

// committedWrite has the listeners told about a write once tx commits.
func (e *Engine) committedWrite(tx *db.Tx, entity string, id int64, action string) {
	if len(e.committed) == 0 {
		return
	}
	ev := Committed{Entity: entity, ID: id, Action: action}
	tx.AfterCommit(func() {
		for _, l := range e.committed {
			l(ev)
		}
	})
}

package contracts

import (
	"context"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// relContractCriteria is the API name of a contract's criteria links.
const relContractCriteria = "contract_criteria_rel"

// checkCriteriaLink refuses a numeric value on a criteria link unless the
// criterion is one of the two that carry a value (1 and 39): the
// definitions only hide the field, which would drop the value silently, so
// the rule refuses it here, on every write of the link (generic link and
// update-link, and any module's LinkIn or ChangeLinkIn), with 422 at
// "value". The other criteria rule, a choice when the criterion offers
// choices, is the definition's own (choice_id required when its options
// are filled): the engine answers it before this hook runs.
func checkCriteriaLink(_ context.Context, _ db.Querier, l tables.LinkChange) error {
	if l.OtherID == schema.CriteriaWithValueA || l.OtherID == schema.CriteriaWithValueB {
		return nil
	}
	if validate.Empty(l.Sent["value"]) {
		return nil
	}
	return apperr.Validation(apperr.FieldError{Field: "value", Key: "server.contracts.criteria_value_not_allowed", Type: "value_error",
		Args: map[string]string{"field": "value"}})
}

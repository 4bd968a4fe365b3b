package masterdata

import (
	"net/http"

	"portfolio/internal/reqbody"
)

// readUpdate reads the body of a PUT that names its record by key and
// row_version in the body (both required: 422 otherwise) and takes them
// out, leaving the fields to write.
func readUpdate(r *http.Request, key string) (b reqbody.Body, id, version int64, err error) {
	if b, err = reqbody.Read(r); err != nil {
		return nil, 0, 0, err
	}
	if id, err = b.TakeID(key, true); err != nil {
		return nil, 0, 0, err
	}
	if version, err = b.RowVersion(); err != nil {
		return nil, 0, 0, err
	}
	return b, id, version, nil
}

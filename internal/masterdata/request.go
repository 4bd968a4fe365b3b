package masterdata

import (
	"net/http"
	"strconv"

	"portfolio/internal/apperr"
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

// pathID reads the {name} path value as a record key; anything else
// names no record (404).
func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	return id, nil
}

package masterdata

import (
	"net/http"
	"strconv"

	"portfolio/internal/apperr"
)

// pathID reads the {name} path value as a record key; anything else
// names no record (404).
func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	return id, nil
}

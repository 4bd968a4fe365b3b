package httpapi

import (
	"net/http"
	"strconv"

	"portfolio/internal/apperr"
)

// PathID reads the {name} path value as a record key: anything but a
// positive number names no record, so it answers 404 like a missing one.
func PathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	return id, nil
}

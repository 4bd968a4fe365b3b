package httpapi

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// spaHandler serves the built single-page app: files that exist as they are
// (hashed assets cached for a year), every other path index.html so the
// browser router (history mode) can take over.
type spaHandler struct {
	files fs.FS
	index []byte
}

func newSPAHandler(files fs.FS) http.Handler {
	h := &spaHandler{files: files}
	if files != nil {
		if b, err := fs.ReadFile(files, "index.html"); err == nil {
			h.index = b
		}
	}
	return h
}

const notBuilt = `<!doctype html><meta charset="utf-8"><title>Portfolio</title>
<p>The web frontend is not built into this binary. Run <code>make build</code> (or <code>make run</code>) to build it.</p>`

func (h *spaHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.index == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(notBuilt))
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name != "" && name != "index.html" {
		if f, err := h.files.Open(name); err == nil {
			st, statErr := f.Stat()
			f.Close()
			if statErr == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				http.ServeFileFS(w, r, h.files, name)
				return
			}
		}
		if strings.HasPrefix(name, "assets/") {
			// A missing hashed asset is an old build's chunk: a real 404 lets
			// the app show its reload message instead of parsing HTML as JS.
			http.NotFound(w, r)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(h.index))
}

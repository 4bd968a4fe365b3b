package masterdata

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/masterdata/postalcodes"
)

// postalCountries are the countries with postal code data; DE is the
// default of the lookup.
var postalCountries = map[string]bool{"DE": true, "AT": true, "CH": true, "FR": true, "LU": true}

// zipPattern is what a zip code may look like before it is looked up
// (French CEDEX codes have a space, Luxembourg's an "L-").
var zipPattern = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z -]{1,14}$`)

// postalRow is one zip code and state with its places.
type postalRow struct {
	zip, state, places string
	rank               int
}

// postalCodes loads the embedded postal codes into the postalcode table,
// one country at a time on its first lookup, and answers lookups from the
// table. The data version (a digest of the embedded file) is kept per
// country, so a binary with new data reloads it.
type postalCodes struct {
	db      *db.DB
	version string

	parseOnce sync.Once
	rows      map[string][]postalRow
	parseErr  error

	mu     sync.Mutex
	loaded map[string]bool
}

func newPostalCodes(d *db.DB) *postalCodes {
	sum := sha256.Sum256(postalcodes.CSVGz)
	return &postalCodes{db: d, version: hex.EncodeToString(sum[:8]), loaded: map[string]bool{}}
}

// PostalAnswer is the answer of GET /users/state/{zip}: the state of the
// zip code (the one with most places when it spans several), every state
// it spans, its country and its places.
type PostalAnswer struct {
	State   string   `json:"state"`
	States  []string `json:"states"`
	Country string   `json:"country"`
	Places  []string `json:"places"`
}

// Lookup answers the state of zip in country (DE when empty): 422 for a
// country without data, 404 with a detail for an unknown zip code.
func (p *postalCodes) Lookup(ctx context.Context, country, zip string) (*PostalAnswer, error) {
	country = strings.ToUpper(strings.TrimSpace(country))
	if country == "" {
		country = "DE"
	}
	if !postalCountries[country] {
		return nil, apperr.Validation(apperr.FieldError{Field: "country", Loc: []any{"query", "country"}, Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "country", "values": "DE, AT, CH, FR, LU"}})
	}
	zip = normalZip(country, zip)
	unknown := apperr.NotFound("server.masterdata.zip_unknown").With(map[string]string{"zip": zip, "country": country})
	if !zipPattern.MatchString(zip) {
		return nil, unknown
	}
	if err := p.ensure(ctx, country); err != nil {
		return nil, err
	}
	ans, err := p.read(ctx, p.db, country, zip)
	if err != nil {
		return nil, err
	}
	if ans == nil {
		return nil, unknown
	}
	return ans, nil
}

// normalZip writes zip as the data does: capitals, Luxembourg's codes
// with "L-".
func normalZip(country, zip string) string {
	zip = strings.ToUpper(strings.TrimSpace(zip))
	if country == "LU" && !strings.HasPrefix(zip, "L-") {
		zip = "L-" + zip
	}
	return zip
}

// LookupIn answers the state of zip in country reading through q (a
// module's transaction), like Lookup; the country's postal codes must be
// loaded before the transaction began (EnsureAll), since SQLite has one
// writer at a time.
func (p *postalCodes) LookupIn(ctx context.Context, q db.Querier, country, zip string) (*PostalAnswer, error) {
	zip = normalZip(country, zip)
	ans, err := p.read(ctx, q, country, zip)
	if err != nil {
		return nil, err
	}
	if ans == nil {
		return nil, apperr.NotFound("server.masterdata.zip_unknown").With(map[string]string{"zip": zip, "country": country})
	}
	return ans, nil
}

// EnsureAll loads the postal codes of every country not loaded yet.
func (p *postalCodes) EnsureAll(ctx context.Context) error {
	for c := range postalCountries {
		if err := p.ensure(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

func (p *postalCodes) read(ctx context.Context, q db.Querier, country, zip string) (*PostalAnswer, error) {
	rows, err := q.QueryContext(ctx, `SELECT postalcode_state, postalcode_places FROM postalcode
		WHERE country_short = ? AND postalcode_zip = ? ORDER BY postalcode_rank`, country, zip)
	if err != nil {
		return nil, fmt.Errorf("masterdata: look up zip %s %s: %w", country, zip, err)
	}
	defer rows.Close()
	var ans *PostalAnswer
	for rows.Next() {
		var state, places string
		if err := rows.Scan(&state, &places); err != nil {
			return nil, fmt.Errorf("masterdata: look up zip %s %s: %w", country, zip, err)
		}
		if ans == nil {
			ans = &PostalAnswer{State: state, Country: country, States: []string{}, Places: []string{}}
		}
		ans.States = append(ans.States, state)
		if places != "" {
			ans.Places = append(ans.Places, strings.Split(places, "|")...)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("masterdata: look up zip %s %s: %w", country, zip, err)
	}
	return ans, nil
}

// ensure loads country's postal codes unless this database holds them in
// the embedded version. Two servers loading at once: the second one's
// marker insert fails as a duplicate, and it uses the first one's rows.
func (p *postalCodes) ensure(ctx context.Context, country string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loaded[country] {
		return nil
	}
	var version string
	err := p.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(postalcode_version), '') FROM postalcode_load WHERE country_short = ?`, country).Scan(&version)
	if err != nil {
		return fmt.Errorf("masterdata: postal codes of %s: %w", country, err)
	}
	if version != p.version {
		if err := p.load(ctx, country); err != nil && !db.IsUniqueViolation(err) {
			return err
		}
	}
	p.loaded[country] = true
	return nil
}

// postalBatch is the number of rows of one insert statement.
const postalBatch = 200

// load replaces the postal codes of country with the embedded ones.
func (p *postalCodes) load(ctx context.Context, country string) error {
	all, err := p.parsed()
	if err != nil {
		return err
	}
	rows := all[country]
	return p.db.InTx(ctx, func(tx *db.Tx) error {
		for _, stmt := range []string{`DELETE FROM postalcode_load WHERE country_short = ?`, `DELETE FROM postalcode WHERE country_short = ?`} {
			if _, err := tx.ExecContext(ctx, stmt, country); err != nil {
				return fmt.Errorf("masterdata: clear postal codes of %s: %w", country, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO postalcode_load (country_short, postalcode_version) VALUES (?, ?)`, country, p.version); err != nil {
			return fmt.Errorf("masterdata: mark postal codes of %s: %w", country, err)
		}
		for start := 0; start < len(rows); start += postalBatch {
			batch := rows[start:min(start+postalBatch, len(rows))]
			args := make([]any, 0, len(batch)*5)
			for _, r := range batch {
				args = append(args, country, r.zip, r.state, r.rank, r.places)
			}
			stmt := `INSERT INTO postalcode (country_short, postalcode_zip, postalcode_state, postalcode_rank, postalcode_places) VALUES ` +
				strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", len(batch)), ", ")
			if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
				return fmt.Errorf("masterdata: load postal codes of %s: %w", country, err)
			}
		}
		return nil
	})
}

// parsed reads the embedded data once.
func (p *postalCodes) parsed() (map[string][]postalRow, error) {
	p.parseOnce.Do(func() { p.rows, p.parseErr = parsePostal(postalcodes.CSVGz) })
	return p.rows, p.parseErr
}

// parsePostal reads gzipped CSV rows country,zip,state,places, a zip
// code's states in rank order.
func parsePostal(gz []byte) (map[string][]postalRow, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("masterdata: postal codes: %w", err)
	}
	r := csv.NewReader(zr)
	r.FieldsPerRecord = 4
	out := map[string][]postalRow{}
	lastZip := map[string]string{}
	rank := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("masterdata: postal codes: %w", err)
		}
		cc, zip := rec[0], rec[1]
		if lastZip[cc] == zip {
			rank++
		} else {
			rank, lastZip[cc] = 0, zip
		}
		out[cc] = append(out[cc], postalRow{zip: zip, state: rec[2], places: rec[3], rank: rank})
	}
}

// stateOfZip serves GET /users/state/{zip}?country=: the state of a zip
// code (German by default), its country and places; 404 with a detail for
// an unknown code.
func (h *handler) stateOfZip(w http.ResponseWriter, r *http.Request) error {
	ans, err := h.s.postal.Lookup(r.Context(), r.URL.Query().Get("country"), r.PathValue("zip"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

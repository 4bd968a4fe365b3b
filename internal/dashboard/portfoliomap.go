package dashboard

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/zipgeo"
)

// MapPlace is one marker of the portfolio map: the points of sale whose
// (first) location lies in one postal code area, placed at that area's
// coordinates, with the worst traffic light of their contracts' next
// notice dates ("" when none has an active deadline ahead, or the caller
// may not read deadlines). A place of one point of sale names it.
type MapPlace struct {
	Key    string         `json:"key"`
	Lat    float32        `json:"lat"`
	Lon    float32        `json:"lon"`
	Count  int            `json:"count"`
	Status deadline.Light `json:"status"`
	PosID  int64          `json:"pos_id,omitempty"`
	Name   string         `json:"name,omitempty"`
}

// PortfolioMap is GET /dashboard/map: the places of the caller's points
// of sale (one per postal code area, so the answer grows with the
// portfolio's postal codes, not with its points of sale), how many points
// were placed and how many could not be (no location, or a postal code the
// data does not know), and the data's attribution.
type PortfolioMap struct {
	Places      []MapPlace `json:"places"`
	Placed      int        `json:"placed"`
	Unplaced    int        `json:"unplaced"`
	Attribution string     `json:"attribution"`
}

// PlacePoint is a point of sale of one place.
type PlacePoint struct {
	PosID  int64          `json:"pos_id"`
	Name   string         `json:"name"`
	Status deadline.Light `json:"status"`
}

// MapPlaceDetail is GET /dashboard/map/place: the points of sale of one
// place, worst light first, at most placeLimit of its total.
type MapPlaceDetail struct {
	Key    string       `json:"key"`
	Total  int          `json:"total"`
	Points []PlacePoint `json:"points"`
}

// placeLimit bounds the points one place lists: a list, not a report.
const placeLimit = 200

// placedPos is a point of sale with where it lies.
type placedPos struct {
	PlacePoint
	key string
	at  zipgeo.Point
}

// Map places the caller's points of sale by their location's postal code,
// one marker per postal code area, coloured by the worst light of its
// points: the light of each point's earliest active notice date from today
// on (the contract's next notice date), so the map and the deadline figure
// agree.
func (s *Service) Map(ctx context.Context) (*PortfolioMap, error) {
	out := &PortfolioMap{Places: []MapPlace{}, Attribution: zipgeo.Attribution}
	byKey := map[string]*MapPlace{}
	unplaced, err := s.placedPoints(ctx, "", func(p placedPos) {
		out.Placed++
		pl := byKey[p.key]
		if pl == nil {
			pl = &MapPlace{Key: p.key, Lat: p.at.Lat, Lon: p.at.Lon, PosID: p.PosID, Name: p.Name}
			byKey[p.key] = pl
		}
		pl.Count++
		pl.Status = deadline.Worse(pl.Status, p.Status)
	})
	if err != nil {
		return nil, err
	}
	out.Unplaced = unplaced
	for _, pl := range byKey {
		if pl.Count > 1 {
			pl.PosID, pl.Name = 0, ""
		}
		out.Places = append(out.Places, *pl)
	}
	slices.SortFunc(out.Places, func(a, b MapPlace) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// MapPlace lists the caller's points of sale of the place key
// ("<country>-<postal code>", as Map answers it).
func (s *Service) MapPlace(ctx context.Context, key string) (*MapPlaceDetail, error) {
	if _, _, ok := splitPlaceKey(key); !ok {
		return nil, apperr.Validation(apperr.FieldError{Loc: []any{"query", "key"}, Key: "server.dashboard.place_key", Type: "value_error"})
	}
	out := &MapPlaceDetail{Key: key, Points: []PlacePoint{}}
	_, err := s.placedPoints(ctx, key, func(p placedPos) {
		out.Total++
		out.Points = append(out.Points, p.PlacePoint)
	})
	if err != nil {
		return nil, err
	}
	rank := map[deadline.Light]int{deadline.LightRed: 0, deadline.LightYellow: 1, deadline.LightGreen: 2, "": 3}
	slices.SortFunc(out.Points, func(a, b PlacePoint) int {
		return cmp.Or(cmp.Compare(rank[a.Status], rank[b.Status]), strings.Compare(a.Name, b.Name), cmp.Compare(a.PosID, b.PosID))
	})
	if len(out.Points) > placeLimit {
		out.Points = out.Points[:placeLimit]
	}
	return out, nil
}

// placeKey names a postal code area on the map.
func placeKey(country, zip string) string {
	return strings.ToUpper(strings.TrimSpace(country)) + "-" + strings.TrimSpace(zip)
}

// splitPlaceKey is the inverse of placeKey.
func splitPlaceKey(key string) (country, zip string, ok bool) {
	country, zip, ok = strings.Cut(key, "-")
	return country, zip, ok && country != "" && zip != ""
}

// placedPoints calls each with every placed point of sale of the caller
// (only those of place key, when key is not empty) and answers how many
// could not be placed.
func (s *Service) placedPoints(ctx context.Context, key string, each func(placedPos)) (unplaced int, err error) {
	ok, err := s.mayReadAll(ctx, entityPos, entityLocation)
	if err != nil || !ok {
		return 0, err
	}
	today := deadline.Day(s.now().UTC())
	next, err := s.nextNotices(ctx, today)
	if err != nil {
		return 0, err
	}
	from, args, err := s.scoped(ctx, entityPos, "p", entityLocation, "l", entityAddress, "a", entityCity, "ci", entityCountry, "co")
	if err != nil {
		return 0, err
	}
	where := ""
	if country, zip, ok := splitPlaceKey(key); ok {
		where = ` WHERE TRIM(ci.city_zip) = ? AND UPPER(TRIM(co.country_short)) = ?`
		args = append(args, zip, country)
	}
	// A point of sale with several locations is placed at its first.
	rows, err := s.db.QueryContext(ctx, `SELECT p.pos_id, p.pos_name, ci.city_zip, co.country_short FROM `+from[0]+`
		LEFT JOIN pos_location pl ON pl.pos_id = p.pos_id AND pl.location_id =
			(SELECT MIN(x.location_id) FROM pos_location x WHERE x.pos_id = p.pos_id)
		LEFT JOIN `+from[1]+` ON l.location_id = pl.location_id
		LEFT JOIN `+from[2]+` ON a.address_id = l.address_id
		LEFT JOIN `+from[3]+` ON ci.city_id = a.city_id
		LEFT JOIN `+from[4]+` ON co.country_id = ci.country_id`+where, args...)
	if err != nil {
		return 0, fmt.Errorf("dashboard: map: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p placedPos
		var zip, country *string
		if err := rows.Scan(&p.PosID, &p.Name, &zip, &country); err != nil {
			return 0, fmt.Errorf("dashboard: map: %w", err)
		}
		if zip == nil || country == nil {
			unplaced++
			continue
		}
		at, found, err := zipgeo.Lookup(*country, *zip)
		if err != nil {
			return 0, err
		}
		if !found {
			unplaced++
			continue
		}
		p.key, p.at = placeKey(*country, *zip), at
		if n, ok := next[p.PosID]; ok {
			p.Status = s.lights.LightOf(n, today)
		}
		each(p)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("dashboard: map: %w", err)
	}
	return unplaced, nil
}

// nextNotices is the earliest active notice date from today on per point
// of sale over its contracts (none when the caller may not read
// contracts or deadlines).
func (s *Service) nextNotices(ctx context.Context, today time.Time) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	ok, err := s.mayReadAll(ctx, entityContract, entityDeadline)
	if err != nil || !ok {
		return out, err
	}
	from, args, err := s.scoped(ctx, entityContract, "c", entityDeadline, "d")
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.pos_id, MIN(d.contractaction_notice_date) FROM `+from[0]+`
		JOIN `+from[1]+` ON d.contract_id = c.contract_id
		WHERE d.contractaction_status = 'active' AND d.contractaction_notice_date >= ?
		GROUP BY c.pos_id`, append(args, today.Format(time.DateOnly))...)
	if err != nil {
		return nil, fmt.Errorf("dashboard: next notices: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var pos int64
		var day any
		if err := rows.Scan(&pos, &day); err != nil {
			return nil, fmt.Errorf("dashboard: next notices: %w", err)
		}
		d, err := dateOf(day)
		if err != nil {
			return nil, err
		}
		out[pos] = d
	}
	return out, rows.Err()
}

// dateOf reads a DATE value (text on SQLite, time on PostgreSQL).
func dateOf(v any) (time.Time, error) {
	switch d := v.(type) {
	case time.Time:
		return d, nil
	case string:
		return time.Parse(time.DateOnly, d[:min(len(d), 10)])
	case []byte:
		return time.Parse(time.DateOnly, string(d[:min(len(d), 10)]))
	}
	return time.Time{}, fmt.Errorf("dashboard: %T is not a date", v)
}

package dashboard

import (
	"context"
	"fmt"
	"time"

	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/zipgeo"
)

// MapPoint is a point of sale on the portfolio map: where its (first)
// location's postal code lies, and the traffic light of its contracts'
// next notice date ("" when none of its contracts has an active deadline
// ahead, or the caller may not read deadlines).
type MapPoint struct {
	PosID  int64          `json:"pos_id"`
	Name   string         `json:"name"`
	Lat    float32        `json:"lat"`
	Lon    float32        `json:"lon"`
	Status deadline.Light `json:"status"`
}

// PortfolioMap is GET /dashboard/map: the placed points of sale, how many
// could not be placed (no location, or a postal code the data does not
// know) and the data's attribution.
type PortfolioMap struct {
	Points      []MapPoint `json:"points"`
	Unplaced    int        `json:"unplaced"`
	Attribution string     `json:"attribution"`
}

// Map places the caller's points of sale by their location's postal code
// and colours each by the worst light of its contracts' deadlines: the
// light of the earliest active notice date from today on (the contract's
// next notice date), so the map and the deadline figure agree.
func (s *Service) Map(ctx context.Context) (*PortfolioMap, error) {
	ok, err := s.mayReadAll(ctx, entityPos, entityLocation)
	if err != nil {
		return nil, err
	}
	out := &PortfolioMap{Points: []MapPoint{}, Attribution: zipgeo.Attribution}
	if !ok {
		return out, nil
	}
	today := deadline.Day(s.now().UTC())
	next, err := s.nextNotices(ctx, today)
	if err != nil {
		return nil, err
	}
	from, args, err := s.scoped(ctx, entityPos, "p", entityLocation, "l", entityAddress, "a", entityCity, "ci", entityCountry, "co")
	if err != nil {
		return nil, err
	}
	// A point of sale with several locations is placed at its first.
	rows, err := s.db.QueryContext(ctx, `SELECT p.pos_id, p.pos_name, ci.city_zip, co.country_short FROM `+from[0]+`
		LEFT JOIN pos_location pl ON pl.pos_id = p.pos_id AND pl.location_id =
			(SELECT MIN(x.location_id) FROM pos_location x WHERE x.pos_id = p.pos_id)
		LEFT JOIN `+from[1]+` ON l.location_id = pl.location_id
		LEFT JOIN `+from[2]+` ON a.address_id = l.address_id
		LEFT JOIN `+from[3]+` ON ci.city_id = a.city_id
		LEFT JOIN `+from[4]+` ON co.country_id = ci.country_id
		ORDER BY p.pos_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("dashboard: map: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var pt MapPoint
		var zip, country *string
		if err := rows.Scan(&pt.PosID, &pt.Name, &zip, &country); err != nil {
			return nil, fmt.Errorf("dashboard: map: %w", err)
		}
		if zip == nil || country == nil {
			out.Unplaced++
			continue
		}
		at, found, err := zipgeo.Lookup(*country, *zip)
		if err != nil {
			return nil, err
		}
		if !found {
			out.Unplaced++
			continue
		}
		pt.Lat, pt.Lon = at.Lat, at.Lon
		if n, ok := next[pt.PosID]; ok {
			pt.Status = s.lights.LightOf(n, today)
		}
		out.Points = append(out.Points, pt)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("dashboard: map: %w", err)
	}
	return out, nil
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

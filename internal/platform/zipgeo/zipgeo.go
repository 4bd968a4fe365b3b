// Package zipgeo places postal codes on the map: the GeoNames coordinates
// (CC BY 4.0, see README.md and LICENSE in this directory) of the zip codes
// of Germany, Austria, Switzerland, France and Luxembourg.
package zipgeo

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the coordinates
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

//go:embed zipgeo.csv.gz
var csvGz []byte

// Attribution names the source of the coordinates; whoever shows them
// shows it.
const Attribution = "Postal code coordinates: GeoNames (geonames.org), CC BY 4.0"

// Point is a position in degrees.
type Point struct {
	Lat, Lon float32
}

var (
	once   sync.Once
	points map[string]Point
	errAll error
)

// Lookup answers the coordinates of zip code zip in country (ISO code, as
// country_short holds it: "DE"); ok is false for an unknown code.
func Lookup(country, zip string) (Point, bool, error) {
	once.Do(func() { points, errAll = parse(csvGz) })
	if errAll != nil {
		return Point{}, false, errAll
	}
	p, ok := points[key(strings.ToUpper(strings.TrimSpace(country)), strings.TrimSpace(zip))]
	return p, ok, nil
}

func key(country, zip string) string { return country + "|" + zip }

// parse reads the embedded rows country,zip,lat,lon.
func parse(gz []byte) (map[string]Point, error) {
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("zipgeo: %w", err)
	}
	r := csv.NewReader(z)
	r.FieldsPerRecord = 4
	r.ReuseRecord = true
	out := make(map[string]Point, 42000)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("zipgeo: %w", err)
		}
		lat, err1 := strconv.ParseFloat(rec[2], 32)
		lon, err2 := strconv.ParseFloat(rec[3], 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("zipgeo: bad coordinates %v", rec)
		}
		out[key(rec[0], rec[1])] = Point{Lat: float32(lat), Lon: float32(lon)}
	}
}

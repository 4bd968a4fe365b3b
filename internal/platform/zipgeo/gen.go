//go:build ignore

// gen writes zipgeo.csv.gz from the GeoNames postal code CSVs in DIR
// (zipcodes.de.csv, ...): one row per country and zip code with the mean
// coordinates of its places, rounded to 3 decimals (about 100 m).
//
//	go run gen.go DIR
package main

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run gen.go DIR")
		os.Exit(2) // a usage error, as in postalcodes/gen.go
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// mean sums the coordinates of one zip code's places.
type mean struct{ lat, lon, n float64 }

func run(dir string) error {
	sums := map[[2]string]*mean{}
	for _, cc := range []string{"at", "ch", "de", "fr", "lu"} {
		if err := add(sums, filepath.Join(dir, "zipcodes."+cc+".csv")); err != nil {
			return err
		}
	}
	keys := make([][2]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	return write("zipgeo.csv.gz", keys, sums)
}

// add reads one GeoNames CSV (heading first; latitude and longitude in
// columns 10 and 11) into sums; places without coordinates are skipped.
func add(sums map[[2]string]*mean, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	if _, err := r.Read(); err != nil {
		return fmt.Errorf("%s: heading: %w", path, err)
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		lat, e1 := strconv.ParseFloat(rec[9], 64)
		lon, e2 := strconv.ParseFloat(rec[10], 64)
		if e1 != nil || e2 != nil {
			continue
		}
		k := [2]string{rec[0], rec[1]}
		m := sums[k]
		if m == nil {
			m = &mean{}
			sums[k] = m
		}
		m.lat, m.lon, m.n = m.lat+lat, m.lon+lon, m.n+1
	}
}

func write(path string, keys [][2]string, sums map[[2]string]*mean) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer out.Close()
	z, err := gzip.NewWriterLevel(out, gzip.BestCompression)
	if err != nil {
		return err
	}
	w := csv.NewWriter(z)
	for _, k := range keys {
		m := sums[k]
		if err := w.Write([]string{k[0], k[1], strconv.FormatFloat(m.lat/m.n, 'f', 3, 64), strconv.FormatFloat(m.lon/m.n, 'f', 3, 64)}); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	if err := z.Close(); err != nil {
		return err
	}
	return out.Close()
}

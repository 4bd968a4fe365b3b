//go:build ignore

// gen builds postalcodes.csv.gz from the GeoNames postal code CSVs
// (country_code,zipcode,place,state,...): one row per country, zip code
// and state, "country,zip,state,places", places joined by "|", the state
// holding most places of a zip code first.
//
//	go run gen.go /path/to/postal-codes
package main

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run gen.go DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type group struct {
	state  string
	places []string
}

func run(dir string) error {
	out, err := os.Create("postalcodes.csv.gz")
	if err != nil {
		return err
	}
	defer out.Close()
	zw, err := gzip.NewWriterLevel(out, gzip.BestCompression)
	if err != nil {
		return err
	}
	w := csv.NewWriter(zw)
	for _, cc := range []string{"de", "at", "ch", "fr", "lu"} {
		if err := country(w, filepath.Join(dir, "zipcodes."+cc+".csv")); err != nil {
			return fmt.Errorf("%s: %w", cc, err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return zw.Close()
}

func country(w *csv.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	byZip := map[string][]*group{}
	var zips []string
	cc := ""
	for _, r := range rows[1:] {
		cc = r[0]
		zip, place, state := strings.TrimSpace(r[1]), strings.TrimSpace(r[2]), strings.TrimSpace(r[3])
		if zip == "" || state == "" {
			continue
		}
		gs, seen := byZip[zip]
		if !seen {
			zips = append(zips, zip)
		}
		var g *group
		for _, x := range gs {
			if x.state == state {
				g = x
			}
		}
		if g == nil {
			g = &group{state: state}
			byZip[zip] = append(gs, g)
		}
		if place != "" && !contains(g.places, place) {
			g.places = append(g.places, place)
		}
	}
	sort.Strings(zips)
	for _, zip := range zips {
		gs := byZip[zip]
		sort.SliceStable(gs, func(i, j int) bool { return len(gs[i].places) > len(gs[j].places) })
		for _, g := range gs {
			if err := w.Write([]string{cc, zip, g.state, strings.Join(g.places, "|")}); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

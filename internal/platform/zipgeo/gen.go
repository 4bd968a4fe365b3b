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
		os.Exit(2)
	}
	type acc struct{ lat, lon, n float64 }
	sums := map[[2]string]*acc{}
	for _, cc := range []string{"at", "ch", "de", "fr", "lu"} {
		f, err := os.Open(filepath.Join(os.Args[1], "zipcodes."+cc+".csv"))
		if err != nil {
			panic(err)
		}
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		head := true
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				panic(err)
			}
			if head {
				head = false
				continue
			}
			lat, e1 := strconv.ParseFloat(rec[9], 64)
			lon, e2 := strconv.ParseFloat(rec[10], 64)
			if e1 != nil || e2 != nil {
				continue
			}
			k := [2]string{rec[0], rec[1]}
			a := sums[k]
			if a == nil {
				a = &acc{}
				sums[k] = a
			}
			a.lat, a.lon, a.n = a.lat+lat, a.lon+lon, a.n+1
		}
		f.Close()
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
	out, err := os.Create("zipgeo.csv.gz")
	if err != nil {
		panic(err)
	}
	z, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	w := csv.NewWriter(z)
	for _, k := range keys {
		a := sums[k]
		w.Write([]string{k[0], k[1], strconv.FormatFloat(a.lat/a.n, 'f', 3, 64), strconv.FormatFloat(a.lon/a.n, 'f', 3, 64)})
	}
	w.Flush()
	if err := z.Close(); err != nil {
		panic(err)
	}
	if err := out.Close(); err != nil {
		panic(err)
	}
}

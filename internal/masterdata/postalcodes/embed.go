// Package postalcodes holds the GeoNames postal code data (CC BY 4.0, see
// README.md and LICENSE in this directory) the state lookup answers from.
package postalcodes

import _ "embed"

// CSVGz is postalcodes.csv.gz: gzipped CSV rows country,zip,state,places.
//
//go:embed postalcodes.csv.gz
var CSVGz []byte

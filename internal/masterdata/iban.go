package masterdata

import (
	"context"
	"math/big"
	"portfolio/internal/tables"
	"strings"

	"portfolio/internal/apperr"
)

// ibanLengths is the length of an IBAN by country (the SWIFT IBAN
// registry).
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "BY": 28,
	"CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
	"FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
	"IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
	"LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
	"NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SD": 18,
	"SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22,
	"VG": 24, "XK": 20,
}

// ibanProblem answers why iban (capitals, no spaces) is not a valid IBAN:
// "" when it is, else the translation key of the reason (unknown country,
// wrong length for the country, wrong ISO 13616 check digits).
func ibanProblem(iban string) string {
	if len(iban) < 5 {
		return "server.masterdata.iban_length"
	}
	want, ok := ibanLengths[iban[:2]]
	if !ok {
		return "server.masterdata.iban_country"
	}
	if len(iban) != want {
		return "server.masterdata.iban_length"
	}
	// Move the first four characters to the end, letters to 10..35; the
	// number modulo 97 is 1.
	var digits strings.Builder
	for _, r := range iban[4:] + iban[:4] {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			digits.WriteString(big.NewInt(int64(r - 'A' + 10)).String())
		default:
			return "server.masterdata.iban_check"
		}
	}
	n, ok := new(big.Int).SetString(digits.String(), 10)
	if !ok || new(big.Int).Mod(n, big.NewInt(97)).Int64() != 1 {
		return "server.masterdata.iban_check"
	}
	return ""
}

// checkBankdata is the write hook of bank data: an IBAN written through
// the generic API, a relation tab or the module's calls is checked by its
// country's length and its check digits (422 on bankdata_iban).
func checkBankdata(_ context.Context, w *tables.WriteContext) error {
	return checkIBAN(w.Values)
}

// checkIBAN refuses an IBAN that fails its country's length or its check
// digits (422 on bankdata_iban); values without one pass.
func checkIBAN(values map[string]any) error {
	iban, ok := values["bankdata_iban"].(string)
	if !ok {
		return nil
	}
	if key := ibanProblem(iban); key != "" {
		return apperr.Validation(apperr.FieldError{Field: "bankdata_iban", Key: key, Type: "value_error",
			Args: map[string]string{"field": "IBAN"}})
	}
	return nil
}

// normalIBAN writes an IBAN or BIC as stored: capitals without spaces.
func normalIBAN(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

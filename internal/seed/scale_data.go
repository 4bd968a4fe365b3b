package seed

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
)

// scaleCitiesCSV holds real postal codes of cities in Germany, Austria,
// Switzerland and France (GeoNames, CC BY 4.0; see scale_cities_NOTICE.md).
//
//go:embed scale_cities.csv
var scaleCitiesCSV string

// scaleCity is one postal code of a city.
type scaleCity struct {
	country, zip, name, state string
	lang                      string // de, fr or it: the language of street and area names
	id                        int64  // city_id once ensured
}

// frenchCantons and italianCantons decide the language of Swiss addresses.
var (
	frenchCantons  = []string{"Genève", "Canton de Vaud", "Neuchâtel", "Canton du Valais", "Canton de Fribourg"}
	italianCantons = []string{"Ticino"}
)

func parseScaleCities() ([]scaleCity, error) {
	r := csv.NewReader(strings.NewReader(scaleCitiesCSV))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("seed: scale cities: %w", err)
	}
	if strings.Join(header, ",") != "country,zip,city,state" {
		return nil, fmt.Errorf("seed: scale cities: unexpected header %v", header)
	}
	var out []scaleCity
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("seed: scale cities: %w", err)
		}
		c := scaleCity{country: rec[0], zip: rec[1], name: rec[2], state: rec[3], lang: "de"}
		switch {
		case c.country == "FR" || (c.country == "CH" && slices.Contains(frenchCantons, c.state)):
			c.lang = "fr"
		case c.country == "CH" && slices.Contains(italianCantons, c.state):
			c.lang = "it"
		}
		out = append(out, c)
	}
	return out, nil
}

// scaleCountry is a country the generated portfolio uses.
type scaleCountry struct {
	short, name, currency string
}

var scaleCountries = []scaleCountry{
	{"DE", "Deutschland", "EUR"}, {"AT", "Österreich", "EUR"}, {"CH", "Schweiz", "CHF"}, {"FR", "Frankreich", "EUR"},
}

var scaleCurrencies = []struct{ iso, name, symbol string }{
	{"EUR", "Euro", "€"}, {"CHF", "Schweizer Franken", "CHF"},
}

// scaleRegion is where a company's points of sale are: a country and,
// for Germany, a set of states.
type scaleRegion struct {
	name, code, country, legalForm string
	states                         []string // empty: the whole country
}

var scaleRegions = []scaleRegion{
	{"Nord", "N", "DE", "GmbH", []string{"Hamburg", "Bremen", "Niedersachsen", "Schleswig-Holstein", "Mecklenburg-Vorpommern", "Berlin", "Brandenburg"}},
	{"Süd", "S", "DE", "GmbH", []string{"Bayern", "Baden-Württemberg"}},
	{"West", "W", "DE", "GmbH", []string{"Nordrhein-Westfalen", "Hessen", "Rheinland-Pfalz", "Saarland"}},
	{"Ost", "O", "DE", "GmbH", []string{"Sachsen", "Sachsen-Anhalt", "Thüringen", "Berlin", "Brandenburg"}},
	{"Österreich", "AT", "AT", "GmbH", nil},
	{"Schweiz", "CH", "CH", "AG", nil},
	{"France", "FR", "FR", "SAS", nil},
}

// scaleBrands are the retail brands generated customer groups trade under.
var scaleBrands = []struct{ brand, group string }{
	{"Alpenmarkt", "Alpenmarkt Gruppe"}, {"Rheinkauf", "Rheinkauf Holding"}, {"Hansemode", "Hansemode Retail Group"},
	{"Elbhaus", "Elbhaus Handels AG"}, {"Lindenhof", "Lindenhof Märkte Gruppe"}, {"Kronenschuh", "Kronenschuh Holding"},
	{"Sonnenbäck", "Sonnenbäck Filialbetriebe"}, {"Brückner Drogerie", "Brückner Drogerie Gruppe"},
	{"Maison Lumière", "Maison Lumière Groupe"}, {"Le Panier Frais", "Panier Frais Holding"},
	{"Nordlicht Optik", "Nordlicht Optik Gruppe"}, {"Bergkamm Sport", "Bergkamm Sport AG"},
	{"Tiefblau Mode", "Tiefblau Mode Holding"}, {"Grünwerk", "Grünwerk Bio-Märkte Gruppe"},
	{"Papierladen", "Papierladen Handels GmbH & Co. KG"}, {"Spielinsel", "Spielinsel Gruppe"},
	{"Wohnidee", "Wohnidee Einrichtungs AG"}, {"Stadtbäckerei Korn", "Korn Backwaren Holding"},
	{"Uhrwerk & Co", "Uhrwerk Schmuck Gruppe"}, {"Café Morgenrot", "Morgenrot Gastronomie Holding"},
	{"Fahrradhof", "Fahrradhof Gruppe"}, {"Tierfreund", "Tierfreund Fachmärkte AG"},
	{"Lesezeichen", "Lesezeichen Buchhandels Gruppe"}, {"Kochwelt", "Kochwelt Retail Holding"},
}

var scaleFirstNames = []struct {
	name   string
	female bool
}{
	{"Anna", true}, {"Lukas", false}, {"Marie", true}, {"Felix", false}, {"Sophie", true}, {"Jonas", false},
	{"Laura", true}, {"Paul", false}, {"Lena", true}, {"Tim", false}, {"Julia", true}, {"Jan", false},
	{"Sarah", true}, {"Maximilian", false}, {"Katharina", true}, {"Tobias", false}, {"Lisa", true},
	{"Niklas", false}, {"Hannah", true}, {"Florian", false}, {"Camille", true}, {"Louis", false},
	{"Léa", true}, {"Hugo", false}, {"Chloé", true}, {"Matteo", false}, {"Giulia", true}, {"Stefan", false},
}

var scaleLastNames = []string{
	"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
	"Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger",
	"Hartmann", "Lange", "Werner", "Huber", "Gruber", "Steiner", "Brunner", "Keller", "Martin", "Bernard",
	"Dubois", "Moreau", "Laurent", "Rossi", "Bianchi",
}

var scaleStreets = map[string][]string{
	"de": {"Hauptstraße", "Bahnhofstraße", "Marktplatz", "Kirchstraße", "Schillerstraße", "Goethestraße",
		"Gartenstraße", "Lindenstraße", "Königstraße", "Poststraße", "Am Markt", "Rathausplatz", "Friedrichstraße",
		"Wilhelmstraße", "Kaiserstraße", "Mühlenweg", "Industriestraße", "Ringstraße", "Schulstraße",
		"Berliner Straße", "Hamburger Straße", "Münchner Straße", "Breite Straße", "Lange Straße", "Neumarkt"},
	"fr": {"Rue de la République", "Avenue Jean Jaurès", "Rue Victor Hugo", "Boulevard Gambetta",
		"Place de la Liberté", "Rue du Commerce", "Avenue de la Gare", "Rue Nationale", "Grande Rue",
		"Rue Pasteur", "Rue de Paris", "Avenue Foch", "Rue Carnot", "Cours Mirabeau", "Rue du Marché",
		"Boulevard Voltaire", "Rue de la Paix", "Place du Général de Gaulle"},
	"it": {"Via Nassa", "Via Cantonale", "Piazza Grande", "Via San Gottardo", "Corso Elvezia", "Via Pretorio",
		"Viale Stazione", "Via della Posta"},
}

// scaleLocationKinds are the location types with how a location of the
// kind is named per language (%[1]s city, %[2]s street).
var scaleLocationKinds = []struct {
	typeName string
	weight   int
	names    map[string][]string
}{
	{"Einkaufszentrum", 35, map[string][]string{
		"de": {"%[1]s Arkaden", "Galerie %[1]s", "%[1]s-Center", "Forum %[1]s", "Einkaufspark %[1]s"},
		"fr": {"Centre commercial %[1]s", "Les Halles de %[1]s", "%[1]s Grand Place"},
		"it": {"Centro commerciale %[1]s", "Galleria %[1]s"}}},
	{"Innenstadtlage", 40, map[string][]string{
		"de": {"%[2]s, %[1]s"}, "fr": {"%[2]s, %[1]s"}, "it": {"%[2]s, %[1]s"}}},
	{"Fachmarktzentrum", 15, map[string][]string{
		"de": {"Fachmarktzentrum %[1]s-Nord", "Fachmarktzentrum %[1]s-Süd", "Gewerbepark %[1]s-West"},
		"fr": {"Zone commerciale %[1]s Nord", "Zone commerciale %[1]s Sud"},
		"it": {"Centro Fachmarkt %[1]s"}}},
	{"Bahnhof", 10, map[string][]string{
		"de": {"%[1]s Hauptbahnhof"}, "fr": {"Gare de %[1]s"}, "it": {"Stazione di %[1]s"}}},
}

// scaleAreaKinds are the areas a location may have, in order: the first
// always exists, the others with the second and third area.
var scaleAreaKinds = []struct {
	areaType, usageType string
	minSpace, maxSpace  float64
	names               map[string][]string
}{
	{"Verkaufsfläche", "Einzelhandel", 60, 1500, map[string][]string{
		"de": {"Verkaufsfläche EG", "Verkaufsfläche EG und OG"}, "fr": {"Surface de vente RDC"}, "it": {"Superficie di vendita PT"}}},
	{"Lagerfläche", "Lager", 15, 300, map[string][]string{
		"de": {"Lager UG", "Lager EG", "Nebenraum"}, "fr": {"Réserve", "Stockage sous-sol"}, "it": {"Magazzino"}}},
	{"Büro- und Sozialfläche", "Büro", 10, 60, map[string][]string{
		"de": {"Büro und Sozialraum 1. OG", "Sozialraum"}, "fr": {"Bureau et local du personnel"}, "it": {"Ufficio"}}},
}

var scaleContractTypes = []struct {
	name   string
	weight int
}{{"Mietvertrag", 92}, {"Untermietvertrag", 8}}

// scaleCostTypes pair the internal cost type with the landlord's name on
// invoices and a yearly rate per square metre.
var scaleCostTypes = []struct {
	internal, external string
	minRate, maxRate   float64
	apportionable      bool
}{
	{"Heizkosten", "Heizung und Warmwasser", 8, 16, true},
	{"Wasser und Abwasser", "Wasserversorgung und Entwässerung", 1, 3, true},
	{"Gebäudereinigung", "Reinigung Allgemeinflächen", 2, 6, true},
	{"Grundsteuer", "Grundsteuer", 3, 8, true},
	{"Gebäudeversicherung", "Sach- und Haftpflichtversicherung", 1, 3, true},
	{"Hausmeister", "Hauswart und Haustechnik", 2, 5, true},
	{"Müllabfuhr", "Müllbeseitigung", 1, 3, true},
	{"Verwaltungskosten", "Center-Management", 2, 4, false},
}

// The other lookup rows the generated data needs.
const (
	scaleSalutationFemale = "Frau"
	scaleSalutationMale   = "Herr"
	scalePartnerType      = "Vermieter"
)

// scaleBoardName names the generated boards ("Filialverwaltung 1", ...);
// scaleBoardDescription tells them from boards people made.
const (
	scaleBoardName        = "Filialverwaltung"
	scaleBoardDescription = "Generated tickets of the points of sale (portfolio seed --scale)"
)

// scaleBoardColumns are the columns of a generated board, in rank order:
// the working columns with how many of the open tickets wait in each and
// their progress, then the column of the closed tickets. Only the approval
// column has a team (MVM, like the demo boards' "Freigabe"): through it
// the board rule of decision 0027 shows the board to the MVM team and to
// the customers' leads (MVM extern), and the other columns leave each
// ticket the team of its topic.
var scaleBoardColumns = []struct {
	name     string
	team     string
	weight   int
	progress int64
}{
	{"Neu", "", 30, 10},
	{"In Bearbeitung", "", 35, 40},
	{"Rückfrage Vermieter", "", 20, 60},
	{"Freigabe", "MVM", 15, 90},
	{"Erledigt", "", 0, 100},
}

// scalePriorities are the demo's ticket priorities (demo_tickets.go), found
// by name or created, with how often generated tickets get each.
var scalePriorities = []struct {
	name, smiley, color string
	weight              int
}{
	{"Niedrig", "🙂", "#40C057", 30}, {"Mittel", "😐", "#FAB005", 40}, {"Hoch", "😟", "#FD7E14", 20}, {"Dringend", "😱", "#FA5252", 10},
}

// scaleTicketTopics are what the back office's tickets are about: the
// title (%[1]s the point of sale, %[2]d a year, %[3]s the city; explicit
// indexes, so a title may leave arguments out), a description, the
// internal team in charge, whether the ticket names the lease contract,
// and how often it comes up.
var scaleTicketTopics = []struct {
	title, description, team string
	contract                 bool
	weight                   int
}{
	{"Mietvertrag verlängern – %[1]s", "Verlängerung mit dem Vermieter verhandeln, Konditionen mit dem Kunden abstimmen.", "MVM", true, 10},
	{"Kündigungsfrist prüfen – %[1]s", "Kündigungsfristen und Optionen laut Mietvertrag prüfen, Kunden rechtzeitig informieren.", "MVM", true, 8},
	{"Verlängerungsoption ausüben – %[1]s", "Optionsausübung vorbereiten und fristgerecht an den Vermieter senden.", "MVM", true, 5},
	{"Indexanpassung der Miete prüfen – %[1]s", "Wertsicherungsklausel gegen den Verbraucherpreisindex nachrechnen.", "MVM", true, 7},
	{"Nachtrag zum Mietvertrag abstimmen – %[1]s", "Entwurf des Vermieters prüfen und Änderungen mit dem Kunden abstimmen.", "MVM", true, 5},
	{"Mieterhöhung des Vermieters prüfen – %[1]s", "Schreiben des Vermieters gegen den Mietvertrag prüfen.", "MVM", true, 4},
	{"Mietminderung wegen Baustelle prüfen – %[3]s", "Umsatzeinbußen durch die Baustelle dokumentieren, Minderung anmelden.", "MVM", true, 3},
	{"Nebenkostenabrechnung %[2]d prüfen – %[1]s", "Abrechnung des Vermieters gegen Mietvertrag und Vorauszahlungen prüfen.", "NKA", true, 14},
	{"Belege zur Nebenkostenabrechnung %[2]d anfordern – %[3]s", "Belegeinsicht beim Vermieter beantragen.", "NKA", true, 5},
	{"Nebenkostenvorauszahlung anpassen – %[1]s", "Vorauszahlung nach der letzten Abrechnung neu festsetzen.", "NKA", true, 4},
	{"Grundsteuerbescheid %[2]d umlegen – %[3]s", "Umlage der Grundsteuer laut Bescheid prüfen.", "NKA", true, 3},
	{"Mietrückstand klären – %[1]s", "Offene Mietzahlung mit der Buchhaltung des Kunden klären.", "FoMa", true, 4},
	{"Heizung ausgefallen – %[1]s", "Vermieter zur Instandsetzung auffordern, Frist setzen.", "FM", false, 6},
	{"Wasserschaden im Lager – %[1]s", "Schaden aufnehmen, Versicherung und Vermieter informieren.", "FM", false, 4},
	{"Brandschutzprüfung fällig – %[3]s", "Prüftermin mit dem Sachverständigen und der Filiale vereinbaren.", "FM", false, 5},
	{"Beleuchtung Schaufenster defekt – %[1]s", "Elektriker beauftragen.", "FM", false, 4},
	{"Klimaanlage warten – %[1]s", "Wartung nach Wartungsvertrag beauftragen.", "FM", false, 4},
	{"Übergabeprotokoll erstellen – %[1]s", "Übergabe mit dem Vermieter terminieren und protokollieren.", "FM", false, 3},
}

package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
)

// DefaultScaleInvoices is the default number of invoices per generated
// contract: one invoice (with four positions) for every ten contracts.
const DefaultScaleInvoices = 0.1

const (
	// scalePOSPerGroup is about how many points of sale one generated
	// customer group has.
	scalePOSPerGroup = 5000
	// scaleChunk is how many points of sale one transaction writes (about
	// thirteen rows each, so a few thousand rows per transaction).
	scaleChunk = 400
	// scaleContactsPer is how many points of sale share a contact person.
	scaleContactsPer = 40
	// scalePositions is the number of positions of every invoice.
	scalePositions = 4
	// scaleIDFloor keeps generated customer groups, companies and contact
	// persons above the small fixed ids the demo data uses, so seeding the
	// demo after a scale run on the same database still works.
	scaleIDFloor = 1000
	// scaleSeed fixes the pseudo-random sequence; it is mixed with the
	// highest existing point-of-sale id, so a run on a fresh database is
	// reproducible and a second run generates different names.
	scaleSeed = 0x5ca1ab1e
	// scaleMaxInvoices caps the invoices per contract.
	scaleMaxInvoices = 20
	// scaleTicketsPerBoard is the most generated tickets one generated
	// board holds, and scaleOpenEvery makes one in 50 of them open: a
	// board then has at most 2,000 open tickets, the ones its kanban loads
	// (one page of the board's read; docs/performance.md, "The kanban in
	// the browser", measured 5,000). The others are closed, the history a
	// back office piles up.
	scaleTicketsPerBoard = 100000
	scaleOpenEvery       = 50
)

// scaleToday is the reference date of generated leases (contracts run
// past it), fixed so runs are reproducible.
var scaleToday = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// ScaleOption adjusts Scale.
type ScaleOption func(*scaleConfig)

type scaleConfig struct {
	invoices  float64
	group     int64
	brand     string
	companies []int64
}

// tickets tells whether the run generates tickets: not for the demo
// portfolio, whose boards and tickets DemoTickets makes (and makes only
// while there is no board at all).
func (c scaleConfig) tickets() bool { return len(c.companies) == 0 }

// WithScaleInvoices sets how many invoices (each with four positions) are
// generated per contract: 0.1 (the default) is one for every ten
// contracts, 2 is two per contract.
func WithScaleInvoices(perContract float64) ScaleOption {
	return func(c *scaleConfig) { c.invoices = perContract }
}

// WithScaleGroup puts every generated company, and so every point of sale,
// into the existing customer group id instead of new customer groups, so an
// external user of that group sees the whole generated portfolio.
func WithScaleGroup(customergroupID int64) ScaleOption {
	return func(c *scaleConfig) { c.group = customergroupID }
}

// WithScaleCompanies puts every generated point of sale into the existing
// companies ids, in equal shares, named after brand (the demo portfolio of
// the demo companies); no customer groups or companies are generated.
func WithScaleCompanies(brand string, ids ...int64) ScaleOption {
	return func(c *scaleConfig) { c.brand, c.companies = brand, ids }
}

// Scale generates a realistic portfolio of n points of sale for load tests
// and benchmarks: customer groups (one per about 5,000 points of sale, at
// least two), three to six companies each (regional subsidiaries), contact
// persons, and per point of sale one location with an address in a real
// German, Austrian, Swiss or French city, one to three areas, one lease
// contract with its area links (rental and allocation space), and invoices
// with positions for a share of the contracts (WithScaleInvoices), and one
// ticket per point of sale on generated boards "Filialverwaltung N" (one
// board per 100,000 tickets; one ticket in 50 open, the others closed) with
// the demo's priorities and the internal teams' members as assignees. The
// lookup rows it needs (currencies, countries, unit 1, area, usage,
// location, contract, partner and cost types, salutations, cities,
// priorities) are found by name or created. The demo portfolio
// (WithScaleCompanies) gets no tickets: the demo has its own boards.
//
// Runs are reproducible: the pseudo-random sequence is fixed and depends
// only on the highest existing point-of-sale id. Scale is additive: running
// it again adds another n points of sale with different names. Rows are
// written with batched multi-row INSERTs, a few thousand per transaction;
// progress, when not nil, is called after each transaction with the rows
// written so far and the total. On PostgreSQL the ids are reserved up
// front, so a running server may keep writing; on SQLite run it while
// nobody else writes.
func Scale(ctx context.Context, d *db.DB, n int, progress func(done, total int), opts ...ScaleOption) error {
	cfg := scaleConfig{invoices: DefaultScaleInvoices}
	for _, o := range opts {
		o(&cfg)
	}
	if n < 1 {
		return fmt.Errorf("seed: scale: the number of points of sale must be at least 1, not %d", n)
	}
	if cfg.invoices < 0 || cfg.invoices > scaleMaxInvoices || math.IsNaN(cfg.invoices) {
		return fmt.Errorf("seed: scale: invoices per contract must be between 0 and %d, not %g", scaleMaxInvoices, cfg.invoices)
	}
	if progress == nil {
		progress = func(int, int) {}
	}
	g, err := newScaleGen(ctx, d, n, cfg)
	if err != nil {
		return err
	}
	defer g.close()
	if err := g.run(ctx, progress); err != nil {
		return err
	}
	// One segment per text index, as the nightly merge leaves them, and
	// fresh statistics, so the planner knows the new sizes at once.
	if err := d.MergeTextIndexes(ctx); err != nil {
		return err
	}
	return d.Optimize(ctx, n >= 1000)
}

// scaleLookups are the ids of the lookup rows generated rows reference.
type scaleLookups struct {
	currency      map[string]int64 // by ISO 4217 code
	country       map[string]int64 // by country_short
	salutation    [2]int64         // male, female
	locationType  []int64          // parallel to scaleLocationKinds
	areaType      []int64          // parallel to scaleAreaKinds
	usageType     []int64          // parallel to scaleAreaKinds
	contractType  []int64          // parallel to scaleContractTypes
	partnerType   int64
	costType      []int64           // parallel to scaleCostTypes
	externalCosts []int64           // parallel to scaleCostTypes
	priority      []int64           // parallel to scalePriorities
	team          map[string]int64  // internal teams by name
	members       map[int64][]int64 // team id → its internal users
	staff         []int64           // every internal user with a team
}

type scaleCompany struct {
	id          int64
	brand, code string
	region      *scaleRegion
	first, end  int // points of sale [first, end) of the run
	contacts    []int64
	branches    int
}

// scaleGen holds one run's plan and buffers.
type scaleGen struct {
	d        *db.DB
	n        int
	cfg      scaleConfig
	rng      *rand.Rand
	lk       scaleLookups
	cities   []scaleCity
	byRegion map[string][]int // region code → indexes into cities
	next     map[string]int64 // table → next id
	first    map[string]int64 // table → first id of the run

	groups    *inserter
	companies *inserter
	contacts  *inserter
	cityRows  *inserter
	perPOS    []*inserter // in foreign-key order
	address, location, pos, posLocation, area, posArea,
	contract, contractArea, deadline, invoice, invoiceArea, position *inserter

	boardRows, columnRows, boardColumns, boardPriorities *inserter
	ticket                                               *inserter

	company   []scaleCompany
	boards    []scaleBoard
	oldBoards int     // generated boards made by earlier runs
	areas     []uint8 // areas per point of sale
	setupRows int
	total     int
	// today is the date notice dates are computed for.
	today time.Time
}

// scaleBoard is a generated board with its columns in rank order
// (parallel to scaleBoardColumns).
type scaleBoard struct {
	id      int64
	columns []int64
}

// scaleTables are the tables whose ids the run allocates, with their key.
var scaleTables = [][2]string{
	{"customergroup", "customergroup_id"}, {"company", "company_id"}, {"contactperson", "contactperson_id"},
	{"city", "city_id"}, {"address", "address_id"}, {"location", "location_id"}, {"pos", "pos_id"},
	{"area", "area_id"}, {"contract", "contract_id"}, {"contract_area", "contract_area_id"},
	{"contractaction", "contractaction_id"}, {"invoice", "invoice_id"}, {"invoiceposition", "invoiceposition_id"},
	{"board", "board_id"}, {"columnx", "columnx_id"}, {"ticket", "ticket_id"},
}

func newScaleGen(ctx context.Context, d *db.DB, n int, cfg scaleConfig) (*scaleGen, error) {
	cities, err := parseScaleCities()
	if err != nil {
		return nil, err
	}
	g := &scaleGen{d: d, n: n, cfg: cfg, cities: cities, next: map[string]int64{}, first: map[string]int64{}, today: time.Now().UTC()}
	g.groups = newInserter(d, "customergroup", "customergroup_id", "customergroup_name", "customergroup_description")
	g.companies = newInserter(d, "company", "company_id", "customergroup_id", "company_name", "company_shortname", "company_buchungskreis")
	g.contacts = newInserter(d, "contactperson", "contactperson_id", "contactperson_firstname", "contactperson_lastname",
		"contactperson_shortname", "contactsalutation_id", "company_id")
	g.cityRows = newInserter(d, "city", "city_id", "city_name", "city_zip", "state", "country_id")
	g.address = newInserter(d, "address", "address_id", "address_street", "address_house_number", "city_id")
	g.location = newInserter(d, "location", "location_id", "location_name", "locationtype_id", "location_total_area",
		"location_start_date", "company_id", "address_id")
	g.pos = newInserter(d, "pos", "pos_id", "company_id", "pos_name", "pos_branchnumber", "pos_name_external",
		"pos_first_year", "contactperson_id", "pos_internal_id", "pos_opening_date")
	g.posLocation = newInserter(d, "pos_location", "pos_id", "location_id")
	g.area = newInserter(d, "area", "area_id", "location_id", "areatype_id", "area_name", "area_space_value",
		"usagetype_id", "area_usage_valid_from")
	g.posArea = newInserter(d, "pos_area", "pos_id", "area_id")
	g.contract = newInserter(d, "contract", "contract_id", "contract_name", "contracttype_id", "company_id", "pos_id",
		"location_id", "currency_id", "contract_begin_date", "contract_end_date", "contract_first_possible_end_date",
		"contract_migration_checked", "contract_resiliation", "contract_current_end_date")
	g.contractArea = newInserter(d, "contract_area", "contract_area_id", "contract_id", "area_id", "usagetype_id", "unit_id",
		"rentalspace_value", "allocationspace_value", "mainusage", "valid_from")
	g.deadline = newInserter(d, "contractaction", "contractaction_id", "contract_id", "contractaction_acting_by",
		"contractaction_type", "contractaction_resiliation_date", "contractaction_options_count",
		"contractaction_extension_value", "contractaction_extension_unit", "contractaction_notice_period_value",
		"contractaction_notice_period_unit", "contractaction_notice_date", "contractaction_effective_date", "contractaction_uses",
		"contractaction_expired", "contractaction_creation_time", "contractaction_status")
	g.invoice = newInserter(d, "invoice", "invoice_id", "invoice_date", "invoice_date_of_order", "invoice_contract_year",
		"company_id", "invoice_allocationarea", "invoice_payment_date", "contract_id", "partnertype_id",
		"invoice_description", "invoice_number", "invoice_billing_period_from", "invoice_billing_period_to")
	g.invoiceArea = newInserter(d, "invoice_area", "invoice_id", "area_id")
	g.position = newInserter(d, "invoiceposition", "invoiceposition_id", "invoice_id", "invoiceposition_name",
		"externalcosttype_id", "costtype_id", "unit_id", "total_units", "units_customer", "flat_rate",
		"amount_total", "amount_customer", "apportionable")
	g.boardRows = newInserter(d, "board", "board_id", "board_name", "board_description")
	g.columnRows = newInserter(d, "columnx", "columnx_id", "columnx_name", "team_id")
	g.boardColumns = newInserter(d, "board_columnx", "board_id", "columnx_id", "rank_order")
	g.boardPriorities = newInserter(d, "board_priority", "board_id", "priority_id", "rank_order")
	g.ticket = newInserter(d, "ticket", "ticket_id", "ticket_name", "ticket_description", "pos_id", "contract_id",
		"priority_id", "board_id", "columnx_id", "user_id", "team_id", "ticket_yellow_deadline", "ticket_red_deadline",
		"ticket_progress", "ticket_closed", "ticket_created_by", "ticket_creation_time", "ticket_updated", "ticket_rank")
	g.perPOS = []*inserter{g.address, g.location, g.pos, g.posLocation, g.area, g.posArea,
		g.contract, g.contractArea, g.deadline, g.invoice, g.invoiceArea, g.position, g.ticket}

	if err := d.InTx(ctx, func(tx *db.Tx) error { return g.prepare(ctx, tx) }); err != nil {
		g.close()
		return nil, err
	}
	return g, nil
}

// prepare ensures the lookup rows, reads the highest ids and plans the
// organisations and the number of rows.
func (g *scaleGen) prepare(ctx context.Context, tx *db.Tx) error {
	if err := g.ensureLookups(ctx, tx); err != nil {
		return err
	}
	if g.cfg.tickets() {
		if err := g.ensureTicketLookups(ctx, tx); err != nil {
			return err
		}
	}
	if g.cfg.group != 0 {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM customergroup WHERE customergroup_id = ?`, g.cfg.group).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("seed: scale: customer group %d does not exist", g.cfg.group)
		}
		if err != nil {
			return fmt.Errorf("seed: scale: customer group %d: %w", g.cfg.group, err)
		}
	}
	for _, t := range scaleTables {
		var maxID int64
		q := fmt.Sprintf(`SELECT COALESCE(MAX(%s), 0) FROM %s`, db.QuoteIdent(t[1]), db.QuoteIdent(t[0]))
		if err := tx.QueryRowContext(ctx, q).Scan(&maxID); err != nil {
			return fmt.Errorf("seed: scale: highest id of %s: %w", t[0], err)
		}
		next := maxID + 1
		switch t[0] {
		case "customergroup", "company", "contactperson", "board", "columnx":
			next = max(next, scaleIDFloor+1)
		}
		g.next[t[0]], g.first[t[0]] = next, next
	}
	if err := g.ensureCities(ctx, tx); err != nil {
		return err
	}
	g.rng = rand.New(rand.NewPCG(scaleSeed, uint64(g.next["pos"]-1)))
	g.planOrganisations()
	g.planBoards()
	g.planRows()
	return nil
}

// ensureNamed returns the id of the row of lookup table whose <table>_name
// is name, creating it when missing.
func ensureNamed(ctx context.Context, tx *db.Tx, table, name string) (int64, error) {
	pk, col := table+"_id", table+"_name"
	var id int64
	err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT %s FROM %s WHERE %s = ? ORDER BY %s LIMIT 1`, pk, table, col, pk), name).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("seed: find %s %q: %w", table, name, err)
	}
	if err := tx.QueryRowContext(ctx, fmt.Sprintf(`INSERT INTO %s (%s) VALUES (?) RETURNING %s`, table, col, pk), name).Scan(&id); err != nil {
		return 0, fmt.Errorf("seed: create %s %q: %w", table, name, err)
	}
	return id, nil
}

func (g *scaleGen) ensureLookups(ctx context.Context, tx *db.Tx) error {
	lk := scaleLookups{currency: map[string]int64{}, country: map[string]int64{}}
	for _, c := range scaleCurrencies {
		if _, err := tx.ExecContext(ctx, `INSERT INTO currency (currency_name, currency_short, currency_symbol, currency_iso4217)
			VALUES (?, ?, ?, ?) ON CONFLICT (currency_iso4217) DO NOTHING`, c.name, c.iso, c.symbol, c.iso); err != nil {
			return fmt.Errorf("seed: currency %s: %w", c.iso, err)
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT currency_id FROM currency WHERE currency_iso4217 = ?`, c.iso).Scan(&id); err != nil {
			return fmt.Errorf("seed: currency %s: %w", c.iso, err)
		}
		lk.currency[c.iso] = id
	}
	for _, c := range scaleCountries {
		if _, err := tx.ExecContext(ctx, `INSERT INTO country (country_name, country_short, currency_id)
			VALUES (?, ?, ?) ON CONFLICT (country_short) DO NOTHING`, c.name, c.short, lk.currency[c.currency]); err != nil {
			return fmt.Errorf("seed: country %s: %w", c.short, err)
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT country_id FROM country WHERE country_short = ?`, c.short).Scan(&id); err != nil {
			return fmt.Errorf("seed: country %s: %w", c.short, err)
		}
		lk.country[c.short] = id
	}
	// Unit 1 is the default unit of every unit selector (schema.DefaultUnitID).
	if _, err := tx.ExecContext(ctx, `INSERT INTO unit (unit_id, unit_name, unit_short, unit_key)
		VALUES (1, 'Quadratmeter', 'm²', 'area') ON CONFLICT DO NOTHING`); err != nil {
		return fmt.Errorf("seed: default unit: %w", err)
	}
	if err := g.d.ResetSequences(ctx, tx, "unit", "unit_id"); err != nil {
		return err
	}
	var err error
	named := func(table, name string) int64 {
		if err != nil {
			return 0
		}
		var id int64
		id, err = ensureNamed(ctx, tx, table, name)
		return id
	}
	lk.salutation = [2]int64{named("contactsalutation", scaleSalutationMale), named("contactsalutation", scaleSalutationFemale)}
	for _, k := range scaleLocationKinds {
		lk.locationType = append(lk.locationType, named("locationtype", k.typeName))
	}
	for _, k := range scaleAreaKinds {
		lk.areaType = append(lk.areaType, named("areatype", k.areaType))
		lk.usageType = append(lk.usageType, named("usagetype", k.usageType))
	}
	for _, k := range scaleContractTypes {
		lk.contractType = append(lk.contractType, named("contracttype", k.name))
	}
	lk.partnerType = named("partnertype", scalePartnerType)
	for _, c := range scaleCostTypes {
		lk.costType = append(lk.costType, named("costtype", c.internal))
		lk.externalCosts = append(lk.externalCosts, named("externalcosttype", c.external))
	}
	if err != nil {
		return err
	}
	g.lk = lk
	return nil
}

// ensureCities gives every embedded city its id: the existing row with the
// same country, zip and name, or a new one.
func (g *scaleGen) ensureCities(ctx context.Context, tx *db.Tx) error {
	type key struct {
		country   int64
		zip, name string
	}
	have := map[key]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT city_id, country_id, city_zip, city_name FROM city`)
	if err != nil {
		return fmt.Errorf("seed: read cities: %w", err)
	}
	for rows.Next() {
		var id int64
		var k key
		if err := rows.Scan(&id, &k.country, &k.zip, &k.name); err != nil {
			rows.Close()
			return fmt.Errorf("seed: read cities: %w", err)
		}
		have[k] = id
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("seed: read cities: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("seed: read cities: %w", err)
	}
	g.byRegion = map[string][]int{}
	for i := range g.cities {
		c := &g.cities[i]
		k := key{g.lk.country[c.country], c.zip, c.name}
		if id, ok := have[k]; ok {
			c.id = id
		} else {
			c.id = g.id("city")
			have[k] = c.id
			g.cityRows.add(c.id, c.name, c.zip, c.state, k.country)
		}
		for ri := range scaleRegions {
			r := &scaleRegions[ri]
			if r.country == c.country && (len(r.states) == 0 || slices.Contains(r.states, c.state)) {
				g.byRegion[r.code] = append(g.byRegion[r.code], i)
			}
		}
	}
	return nil
}

// id allocates the next id of table.
func (g *scaleGen) id(table string) int64 {
	id := g.next[table]
	g.next[table] = id + 1
	return id
}

// planOrganisations creates the customer groups, companies and contact
// persons and assigns each company a range of the run's points of sale.
func (g *scaleGen) planOrganisations() {
	if len(g.cfg.companies) > 0 {
		g.planIntoCompanies()
		return
	}
	groups := max(2, (g.n+scalePOSPerGroup/2)/scalePOSPerGroup)
	offset := g.rng.IntN(len(scaleBrands))
	start := 0
	for j := range groups {
		b := scaleBrands[(offset+j)%len(scaleBrands)]
		brand, groupName := b.brand, b.group
		code := brandCode(brand)
		if round := (offset + j) / len(scaleBrands); round > 0 {
			suffix := strconv.Itoa(round + 1)
			brand, groupName, code = brand+" "+suffix, groupName+" "+suffix, code+suffix
		}
		groupID := g.cfg.group
		if groupID == 0 {
			groupID = g.id("customergroup")
			g.groups.add(groupID, groupName, "Generated test portfolio (portfolio seed --scale)")
		}
		size := g.n / groups
		if j < g.n%groups {
			size++
		}
		count := 3 + g.rng.IntN(4)
		regions := g.rng.Perm(len(scaleRegions))[:count]
		weights := make([]float64, count)
		sum := 0.0
		for k := range weights {
			weights[k] = 0.5 + g.rng.Float64()
			sum += weights[k]
		}
		cum := 0.0
		for k, ri := range regions {
			r := &scaleRegions[ri]
			first := start + int(math.Round(cum/sum*float64(size)))
			cum += weights[k]
			end := start + int(math.Round(cum/sum*float64(size)))
			c := scaleCompany{id: g.id("company"), brand: brand, code: code + "-" + r.code, region: r, first: first, end: end}
			g.companies.add(c.id, groupID, fmt.Sprintf("%s %s %s", brand, r.name, r.legalForm), c.code,
				strconv.FormatInt(1000+c.id%9000, 10))
			for range max(1, (end-first+scaleContactsPer-1)/scaleContactsPer) {
				first := scaleFirstNames[g.rng.IntN(len(scaleFirstNames))]
				last := scaleLastNames[g.rng.IntN(len(scaleLastNames))]
				salutation := g.lk.salutation[0]
				if first.female {
					salutation = g.lk.salutation[1]
				}
				id := g.id("contactperson")
				g.contacts.add(id, first.name, last, initials(first.name, last), salutation, c.id)
				c.contacts = append(c.contacts, id)
			}
			g.company = append(g.company, c)
		}
		start += size
	}
}

// planIntoCompanies spreads the points of sale over existing companies,
// each with its own region and two contact persons.
func (g *scaleGen) planIntoCompanies() {
	code := brandCode(g.cfg.brand)
	regions := g.rng.Perm(len(scaleRegions))
	start := 0
	for k, id := range g.cfg.companies {
		size := g.n / len(g.cfg.companies)
		if k < g.n%len(g.cfg.companies) {
			size++
		}
		r := &scaleRegions[regions[k%len(regions)]]
		c := scaleCompany{id: id, brand: g.cfg.brand, code: code + "-" + r.code, region: r, first: start, end: start + size}
		for range 2 {
			first := scaleFirstNames[g.rng.IntN(len(scaleFirstNames))]
			last := scaleLastNames[g.rng.IntN(len(scaleLastNames))]
			salutation := g.lk.salutation[0]
			if first.female {
				salutation = g.lk.salutation[1]
			}
			cid := g.id("contactperson")
			g.contacts.add(cid, first.name, last, initials(first.name, last), salutation, id)
			c.contacts = append(c.contacts, cid)
		}
		g.company = append(g.company, c)
		start += size
	}
}

// planRows fixes the number of areas of every point of sale and counts the
// rows the run writes.
func (g *scaleGen) planRows() {
	for _, in := range g.setup() {
		g.setupRows += in.pending()
	}
	g.areas = make([]uint8, g.n)
	g.total = g.setupRows
	for i := range g.n {
		a := 1
		switch r := g.rng.IntN(10); {
		case r >= 8:
			a = 3
		case r >= 4:
			a = 2
		}
		g.areas[i] = uint8(a)
		inv := g.invoicesOf(i)
		// address, location, pos, pos_location, contract; per area: area,
		// pos_area, contract_area; per invoice: the invoice, its positions
		// and an invoice_area per area; the ticket.
		g.total += 5 + scaleDeadlines + 3*a + inv*(1+scalePositions+a) + g.ticketsOf()
	}
}

// setup are the inserters of the rows written before the points of sale,
// in foreign-key order.
func (g *scaleGen) setup() []*inserter {
	return []*inserter{g.cityRows, g.groups, g.companies, g.contacts, g.boardRows, g.columnRows, g.boardColumns, g.boardPriorities}
}

// invoicesOf is the number of invoices of the i-th contract of the run,
// spreading the share evenly.
func (g *scaleGen) invoicesOf(i int) int {
	return int(math.Floor(float64(i+1)*g.cfg.invoices+1e-9) - math.Floor(float64(i)*g.cfg.invoices+1e-9))
}

func (g *scaleGen) run(ctx context.Context, progress func(done, total int)) error {
	if err := inTx(ctx, g.d, func(tx *sql.Tx) error {
		for _, in := range g.setup() {
			if err := in.flush(ctx, tx); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := g.reserveIDs(ctx); err != nil {
		return err
	}
	done := g.setupRows
	progress(done, g.total)
	ci := 0
	for start := 0; start < g.n; start += scaleChunk {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("seed: scale: %w", err)
		}
		end := min(start+scaleChunk, g.n)
		for i := start; i < end; i++ {
			for g.company[ci].end <= i {
				ci++
			}
			g.addPOS(i, &g.company[ci])
		}
		written := 0
		err := inTx(ctx, g.d, func(tx *sql.Tx) error {
			for _, in := range g.perPOS {
				written += in.pending()
				if err := in.flush(ctx, tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		done += written
		progress(done, g.total)
	}
	return g.resetSequences(ctx)
}

// reserveIDs moves PostgreSQL's identity sequences past the ids the run
// will use, so rows created meanwhile by a running server take others.
func (g *scaleGen) reserveIDs(ctx context.Context) error {
	if g.d.Dialect() != db.Postgres {
		return nil
	}
	areas, invoices := 0, 0
	for i, a := range g.areas {
		areas += int(a)
		invoices += g.invoicesOf(i)
	}
	count := map[string]int{
		"address": g.n, "location": g.n, "pos": g.n, "area": areas, "contract": g.n, "contract_area": areas,
		"contractaction": g.n * scaleDeadlines, "invoice": invoices, "invoiceposition": invoices * scalePositions,
		"ticket": g.n * g.ticketsOf(),
	}
	for _, t := range scaleTables {
		last := g.next[t[0]] - 1 + int64(count[t[0]])
		if last < 1 {
			continue
		}
		if _, err := g.d.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, ?), ?)`, t[0], t[1], last); err != nil {
			return fmt.Errorf("seed: scale: reserve ids of %s: %w", t[0], err)
		}
	}
	return nil
}

func (g *scaleGen) resetSequences(ctx context.Context) error {
	for _, t := range scaleTables {
		if err := g.d.ResetSequences(ctx, g.d, t[0], t[1]); err != nil {
			return err
		}
	}
	return nil
}

func (g *scaleGen) close() {
	for _, in := range append(g.setup(), g.perPOS...) {
		in.close()
	}
}

// addPOS buffers the rows of the i-th point of sale of the run.
func (g *scaleGen) addPOS(i int, c *scaleCompany) {
	r := g.rng
	candidates := g.byRegion[c.region.code]
	city := &g.cities[candidates[r.IntN(len(candidates))]]
	lang := city.lang
	streets := scaleStreets[lang]
	street := streets[r.IntN(len(streets))]
	houseNo := strconv.Itoa(1 + r.IntN(180))

	kindIdx := weighted(r, len(scaleLocationKinds), func(k int) int { return scaleLocationKinds[k].weight })
	kind := &scaleLocationKinds[kindIdx]
	patterns := kind.names[lang]
	locationName := fmt.Sprintf(patterns[r.IntN(len(patterns))], city.name, street+" "+houseNo)
	posName := c.brand + " " + locationName
	if kindIdx == 1 { // high street: the brand, the city and the street
		posName = c.brand + " " + city.name + " " + street
	}

	opening := time.Date(1985+r.IntN(40), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
	nAreas := int(g.areas[i])
	type area struct {
		id           int64
		kind         int
		name         string
		space, alloc float64
	}
	areas := make([]area, nAreas)
	total, allocSum := 0.0, 0.0
	for k := range areas {
		ak := &scaleAreaKinds[k]
		// Sizes are spread log-uniformly: many small stores, few large.
		space := math.Round(ak.minSpace*math.Pow(ak.maxSpace/ak.minSpace, r.Float64())*100) / 100
		alloc := space
		if k == 0 {
			alloc = math.Round(space*(1+0.15*r.Float64())*100) / 100
		}
		names := ak.names[lang]
		areas[k] = area{id: g.id("area"), kind: k, name: names[r.IntN(len(names))], space: space, alloc: alloc}
		total += space
		allocSum += alloc
	}

	addressID := g.id("address")
	g.address.add(addressID, street, houseNo, city.id)
	locationID := g.id("location")
	g.location.add(locationID, locationName, g.lk.locationType[kindIdx], decimal(total), day(opening), c.id, addressID)

	posID := g.id("pos")
	c.branches++
	var external any
	if r.IntN(10) < 3 {
		external = fmt.Sprintf("%s %d", map[string]string{"de": "Filiale", "fr": "Magasin", "it": "Negozio"}[lang], c.branches)
	}
	contact := c.contacts[min((i-c.first)/scaleContactsPer, len(c.contacts)-1)]
	g.pos.add(posID, c.id, posName, fmt.Sprintf("%s-%05d", c.code, c.branches), external, opening.Year(), contact, 56, day(opening))
	g.posLocation.add(posID, locationID)
	for _, a := range areas {
		g.area.add(a.id, locationID, g.lk.areaType[a.kind], a.name, decimal(a.space), g.lk.usageType[a.kind], day(opening))
		g.posArea.add(posID, a.id)
	}

	// The current lease: renewed every term since the opening, so it runs
	// past scaleToday.
	ctIdx := weighted(r, len(scaleContractTypes), func(k int) int { return scaleContractTypes[k].weight })
	term := []int{5, 10, 15}[r.IntN(3)]
	begin := time.Date(opening.Year(), opening.Month(), 1, 0, 0, 0, 0, time.UTC)
	for !begin.AddDate(term, 0, 0).After(scaleToday) {
		begin = begin.AddDate(term, 0, 0)
	}
	end := begin.AddDate(term, 0, -1)
	firstEnd := begin.AddDate(min(5, term), 0, -1)
	currency := g.lk.currency["EUR"]
	if city.country == "CH" {
		currency = g.lk.currency["CHF"]
	}
	contractID := g.id("contract")
	checked, resiliated := boolInt(r.IntN(10) < 7), boolInt(r.IntN(100) < 3)
	for _, a := range areas {
		g.contractArea.add(g.id("contract_area"), contractID, a.id, g.lk.usageType[a.kind], int64(1),
			decimal(a.space), decimal(a.alloc), boolInt(a.kind == 0), day(begin))
	}
	current := g.addDeadlines(r, contractID, end, opening)
	g.contract.add(contractID, scaleContractTypes[ctIdx].name+" "+posName, g.lk.contractType[ctIdx], c.id, posID, locationID,
		currency, day(begin), day(end), day(firstEnd), checked, resiliated, day(current))
	if g.cfg.tickets() {
		g.addTicket(r, i, posID, contractID, posName, city.name)
	}

	for range g.invoicesOf(i) {
		// A service charge settlement of one of the years 2021-2024 the
		// lease ran in (a lease renewed on 2025-01-01 settles 2024, under
		// the same tenancy).
		first := min(max(2021, begin.Year()), 2024)
		year := first + r.IntN(2025-first)
		from := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		to := time.Date(year, 12, 31, 0, 0, 0, 0, time.UTC)
		if begin.After(from) && !begin.After(to) {
			from = begin
		}
		invDate := time.Date(year+1, time.Month(3+r.IntN(7)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		invoiceID := g.id("invoice")
		desc := map[string]string{"de": "Nebenkostenabrechnung", "fr": "Décompte de charges", "it": "Conguaglio spese accessorie"}[lang]
		g.invoice.add(invoiceID, day(invDate), day(invDate.AddDate(0, 0, 2+r.IntN(19))), year, c.id, decimal(allocSum),
			day(invDate.AddDate(0, 0, 30)), contractID, g.lk.partnerType, fmt.Sprintf("%s %d", desc, year),
			fmt.Sprintf("NK-%d-%07d", year, invoiceID), day(from), day(to))
		for _, a := range areas {
			g.invoiceArea.add(invoiceID, a.id)
		}
		buildingArea := math.Round(allocSum*(5+25*r.Float64())*100) / 100
		for _, k := range r.Perm(len(scaleCostTypes))[:scalePositions] {
			ct := &scaleCostTypes[k]
			rate := ct.minRate + (ct.maxRate-ct.minRate)*r.Float64()
			g.position.add(g.id("invoiceposition"), invoiceID, ct.external, g.lk.externalCosts[k], g.lk.costType[k], int64(1),
				decimal(buildingArea), decimal(allocSum), boolInt(!ct.apportionable),
				decimal(buildingArea*rate), decimal(allocSum*rate), boolInt(ct.apportionable))
		}
	}
}

// weighted picks an index in [0, n) with the given weights.
func weighted(r *rand.Rand, n int, weight func(int) int) int {
	sum := 0
	for k := range n {
		sum += weight(k)
	}
	x := r.IntN(sum)
	for k := range n {
		if x -= weight(k); x < 0 {
			return k
		}
	}
	return n - 1
}

// brandCode is the upper-case first three letters of a brand.
func brandCode(brand string) string {
	var b strings.Builder
	for _, c := range strings.ToUpper(brand) {
		if utf8.RuneCountInString(b.String()) == 3 {
			break
		}
		if c >= 'A' && c <= 'Z' || c == 'Ä' || c == 'Ö' || c == 'Ü' || c == 'É' || c == 'È' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// initials are the upper-case first letters of first and last name, as the
// schema derives contactperson_shortname.
func initials(first, last string) string {
	f, _ := utf8.DecodeRuneInString(first)
	l, _ := utf8.DecodeRuneInString(last)
	return strings.ToUpper(string(f) + string(l))
}

// day formats a date as the DATE columns take it.
func day(t time.Time) string { return t.Format(time.DateOnly) }

// scaleDeadlines is the number of deadlines of each generated contract.
const scaleDeadlines = 3

// addDeadlines gives a contract ending on end its usual deadlines: the
// ordinary resiliation at its end, an option to extend it, and an
// automatic extension by a year unless someone gives notice, with notice
// dates as the contracts module computes them today; it answers the
// contract's current end they give (decision 0064).
func (g *scaleGen) addDeadlines(r *rand.Rand, contractID int64, end, created time.Time) time.Time {
	options := 1 + r.IntN(3)
	noticeMonths := []int{3, 6, 12}[r.IntN(3)]
	var reached []*time.Time
	for _, dl := range []contracts.Deadline{
		{Type: contracts.TypeResiliation, ResiliationDate: &end, Notice: contracts.Period{Value: noticeMonths, Unit: contracts.UnitMonth}},
		{Type: contracts.TypeActiveOption, OptionsCount: &options, Extension: contracts.Period{Value: 5, Unit: contracts.UnitYear},
			Notice: contracts.Period{Value: 12, Unit: contracts.UnitMonth}, ContractEnd: &end},
		{Type: contracts.TypeAutomaticExtension, Extension: contracts.Period{Value: 1, Unit: contracts.UnitYear},
			Notice: contracts.Period{Value: noticeMonths, Unit: contracts.UnitMonth}, ContractEnd: &end},
	} {
		var notice, effective any
		var uses, expired int64
		if n, err := contracts.NoticeDate(dl, g.today); err == nil && n.Date != nil {
			notice, effective, uses = day(*n.Date), day(*n.End), int64(n.Uses)
			if n.Expired {
				expired = 1
			}
			dl.ContractEnd = &end
			reached = append(reached, contracts.ReachedEnd(dl, n))
		}
		var resiliation, count, extValue, extUnit any
		if dl.ResiliationDate != nil {
			resiliation = day(*dl.ResiliationDate)
		} else {
			extValue, extUnit = int64(dl.Extension.Value), dl.Extension.Unit
		}
		if dl.OptionsCount != nil {
			count = int64(*dl.OptionsCount)
		}
		g.deadline.add(g.id("contractaction"), contractID, "mieter", dl.Type, resiliation, count, extValue, extUnit,
			int64(dl.Notice.Value), dl.Notice.Unit, notice, effective, uses, expired, created, contracts.StatusActive)
	}
	return *contracts.CurrentEnd(&end, reached...)
}

// decimal formats an amount or area for a NUMERIC column (as text, which
// both databases convert exactly).
func decimal(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

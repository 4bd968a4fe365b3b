package schema

// definitions gathers the domain groups in migration order.
func definitions() ([]Entity, []Link) {
	groups := []struct {
		name string
		def  func() ([]Entity, []Link)
	}{
		{"accounts", accounts}, {"lookups", lookups}, {"portfolio", portfolio}, {"contracts", contracts},
		{"invoices", invoices}, {"tickets", tickets}, {"documents", documents}, {"history", history}, {"indexation", indexation},
	}
	var entities []Entity
	var links []Link
	for _, g := range groups {
		es, ls := g.def()
		for i := range es {
			es[i].Group = g.name
		}
		entities = append(entities, es...)
		links = append(links, ls...)
	}
	return entities, links
}

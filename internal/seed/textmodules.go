package seed

import (
	"context"
	"fmt"

	"portfolio/internal/db"
)

// textModule is a text module of the product in one language, found by
// code and language (decision 0016): the contradiction generator's rule
// texts and the objection letter. Administrators edit the wording; the
// seed never overwrites it.
type textModule struct {
	code, lang, name, description string
	template, left                string
	right                         []string
	// replaces is the template this one follows (the rule changed): a
	// module still holding it word for word was never edited and takes the
	// new wording; an edited one is left alone.
	replaces string
}

// Placeholders of a rule's text: {{invoice_number}}, {{position}},
// {{costtype}}, {{claim}}, {{amount_customer}}, {{amount_total}},
// {{units_customer}}, {{total_units}}, {{expected}}, {{previous_amount}},
// {{previous_year}}, {{period_from}}, {{period_to}}, {{period_months}},
// and of the rules of decision 0061 {{period_length}}, {{agreed_length}}
// (months with their noun), {{charged}}, {{position_count}}, {{rent}},
// {{share_percent}}, {{limit_percent}}, {{limit_amount}}, {{cap_per_year}}.
// Of the letter: {{pos_name}}, {{package_name}}, {{company_name}},
// {{recipient}}, {{count}}, {{points}}, {{statement_count}}, {{point_count}},
// {{sum}}, {{date}}.
var textModules = []textModule{
	// costtype_not_agreed
	{code: "contradiction_rule_costtype_not_agreed", lang: "de", name: "Kostenart nicht vereinbart",
		description: "Generator: die Kostenart der Position ist im Vertrag nicht vereinbart.",
		template:    `<p>Die Position „{{position}}“ (Kostenart {{costtype}}) ist nach dem Mietvertrag nicht umlagefähig vereinbart. Wir widersprechen dem auf uns entfallenden Betrag von {{claim}} in voller Höhe.</p>`},
	{code: "contradiction_rule_costtype_not_agreed", lang: "fr", name: "Type de charge non convenu",
		description: "Générateur : le type de charge de la position n’est pas prévu au bail.",
		template:    `<p>La position « {{position}} » (type de charge {{costtype}}) n’est pas prévue au bail comme charge refacturable. Nous contestons la totalité du montant mis à notre charge, soit {{claim}}.</p>`},
	{code: "contradiction_rule_costtype_not_agreed", lang: "en", name: "Cost type not agreed",
		description: "Generator: the position's cost type is not agreed in the lease.",
		template:    `<p>The position “{{position}}” (cost type {{costtype}}) is not agreed as a recoverable cost in the lease. We object to the full amount charged to us, {{claim}}.</p>`},
	// not_apportionable
	{code: "contradiction_rule_not_apportionable", lang: "de", name: "Nicht umlagefähig",
		description: "Generator: die Position ist als nicht umlagefähig gekennzeichnet.",
		template:    `<p>Die Position „{{position}}“ ist nicht umlagefähig, uns wurden dennoch {{amount_customer}} belastet. Wir widersprechen dem Betrag von {{claim}}.</p>`},
	{code: "contradiction_rule_not_apportionable", lang: "fr", name: "Non refacturable",
		description: "Générateur : la position est marquée non refacturable.",
		template:    `<p>La position « {{position}} » n’est pas refacturable ; {{amount_customer}} nous ont pourtant été imputés. Nous contestons le montant de {{claim}}.</p>`},
	{code: "contradiction_rule_not_apportionable", lang: "en", name: "Not apportionable",
		description: "Generator: the position is marked as not apportionable.",
		template:    `<p>The position “{{position}}” is not apportionable, yet {{amount_customer}} were charged to us. We object to the amount of {{claim}}.</p>`},
	// share_exceeded
	{code: "contradiction_rule_share_exceeded", lang: "de", name: "Anteil überschritten",
		description: "Generator: der berechnete Anteil übersteigt den Anteil nach Einheiten.",
		template:    `<p>Für die Position „{{position}}“ entfallen auf uns {{units_customer}} von {{total_units}} Einheiten. Von den Gesamtkosten von {{amount_total}} ergibt das {{expected}}, berechnet wurden {{amount_customer}}. Wir widersprechen dem Mehrbetrag von {{claim}}.</p>`},
	{code: "contradiction_rule_share_exceeded", lang: "fr", name: "Quote-part dépassée",
		description: "Générateur : la part facturée dépasse la quote-part selon les unités.",
		template:    `<p>Pour la position « {{position}} », {{units_customer}} des {{total_units}} unités nous reviennent. Sur un coût total de {{amount_total}}, cela donne {{expected}} ; {{amount_customer}} ont été facturés. Nous contestons la différence de {{claim}}.</p>`},
	{code: "contradiction_rule_share_exceeded", lang: "en", name: "Share exceeded",
		description: "Generator: the share charged exceeds the share by units.",
		template:    `<p>For the position “{{position}}”, {{units_customer}} of {{total_units}} units are ours. Of the total cost of {{amount_total}} that makes {{expected}}; {{amount_customer}} were charged. We object to the excess of {{claim}}.</p>`},
	// flat_rate_changed
	{code: "contradiction_rule_flat_rate_changed", lang: "de", name: "Pauschale erhöht",
		description: "Generator: eine Pauschale ist höher als im Vorjahr.",
		template:    `<p>Die Pauschale „{{position}}“ (Kostenart {{costtype}}) betrug im Vertragsjahr {{previous_year}} {{previous_amount}} und wird nun mit {{amount_customer}} berechnet. Eine vereinbarte Pauschale kann nicht einseitig erhöht werden; wir widersprechen der Erhöhung um {{claim}}.</p>`},
	{code: "contradiction_rule_flat_rate_changed", lang: "fr", name: "Forfait augmenté",
		description: "Générateur : un forfait est plus élevé que l’année précédente.",
		template:    `<p>Le forfait « {{position}} » (type de charge {{costtype}}) s’élevait à {{previous_amount}} pour l’année contractuelle {{previous_year}} et est désormais facturé {{amount_customer}}. Un forfait convenu ne peut être augmenté unilatéralement ; nous contestons l’augmentation de {{claim}}.</p>`},
	{code: "contradiction_rule_flat_rate_changed", lang: "en", name: "Flat rate increased",
		description: "Generator: a flat rate is higher than in the previous year.",
		template:    `<p>The flat rate “{{position}}” (cost type {{costtype}}) was {{previous_amount}} in contract year {{previous_year}} and is now charged at {{amount_customer}}. An agreed flat rate cannot be raised unilaterally; we object to the increase of {{claim}}.</p>`},
	// admin_costs_over_cap (decision 0061): the lease caps them, a claim
	{code: "contradiction_rule_admin_costs_over_cap", lang: "de", name: "Verwaltungskosten über der vereinbarten Obergrenze",
		description: "Generator: die Verwaltungskosten übersteigen die im Mietvertrag vereinbarte Obergrenze (Prozent der Nettomiete).",
		template:    `<p>Die Verwaltungskosten von {{charged}} ({{position_count}}) betragen {{share_percent}} der Nettomiete des Abrechnungszeitraums von {{rent}} und übersteigen die im Mietvertrag vereinbarten {{limit_percent}} ({{limit_amount}}). Wir widersprechen dem Mehrbetrag von {{claim}}.</p>`},
	{code: "contradiction_rule_admin_costs_over_cap", lang: "fr", name: "Frais de gestion au-delà du plafond convenu",
		description: "Générateur : les frais de gestion dépassent le plafond convenu au bail (pourcentage du loyer net).",
		template:    `<p>Les frais de gestion de {{charged}} ({{position_count}}) représentent {{share_percent}} du loyer net de la période de décompte, soit {{rent}}, et dépassent les {{limit_percent}} convenus au bail ({{limit_amount}}). Nous contestons l’excédent de {{claim}}.</p>`},
	{code: "contradiction_rule_admin_costs_over_cap", lang: "en", name: "Administration costs above the agreed cap",
		description: "Generator: the administration costs exceed the cap agreed in the lease (percent of the net rent).",
		template:    `<p>Administration costs of {{charged}} ({{position_count}}) are {{share_percent}} of the net rent of the billing period, {{rent}}, and exceed the {{limit_percent}} agreed in the lease ({{limit_amount}}). We object to the excess of {{claim}}.</p>`},
	// admin_costs_above_customary: no cap agreed, a warning
	{code: "contradiction_rule_admin_costs_above_customary", lang: "de", name: "Verwaltungskosten über der üblichen Spanne",
		description: "Generator (Hinweis): Verwaltungskosten ohne vereinbarte Obergrenze über 5,5 % der Bruttomiete.",
		template:    `<p>Die Verwaltungskosten von {{charged}} ({{position_count}}) betragen {{share_percent}} der Bruttomiete des Abrechnungszeitraums von {{rent}}. Der Mietvertrag begrenzt sie nicht; der BGH hat 5,5 % bis 5,8 % der Bruttomiete als üblich angesehen (Urteil vom 4. Mai 2011, XII ZR 112/09). Wir bitten um Erläuterung und Belege; einen Betrag fordern wir mit diesem Punkt nicht zurück.</p>`},
	{code: "contradiction_rule_admin_costs_above_customary", lang: "fr", name: "Frais de gestion au-delà de la fourchette usuelle",
		description: "Générateur (remarque) : frais de gestion sans plafond convenu au-delà de 5,5 % du loyer brut.",
		template:    `<p>Les frais de gestion de {{charged}} ({{position_count}}) représentent {{share_percent}} du loyer brut de la période de décompte, soit {{rent}}. Le bail ne les plafonne pas ; la Cour fédérale de justice allemande a jugé usuels 5,5 % à 5,8 % du loyer brut (BGH, arrêt du 4 mai 2011, XII ZR 112/09). Nous vous prions de les expliquer et d’en fournir les justificatifs ; nous ne réclamons aucun montant à ce titre.</p>`},
	{code: "contradiction_rule_admin_costs_above_customary", lang: "en", name: "Administration costs above the customary range",
		description: "Generator (warning): administration costs without an agreed cap above 5.5 % of the gross rent.",
		template:    `<p>Administration costs of {{charged}} ({{position_count}}) are {{share_percent}} of the gross rent of the billing period, {{rent}}. The lease does not cap them; the Federal Court of Justice regarded 5.5 % to 5.8 % of the gross rent as customary (BGH, judgment of 4 May 2011, XII ZR 112/09). Please explain them and provide the receipts; we claim no amount on this point.</p>`},
	// maintenance_over_cap: the lease caps them, a claim
	{code: "contradiction_rule_maintenance_over_cap", lang: "de", name: "Instandhaltung Gemeinschaftsflächen über der vereinbarten Obergrenze",
		description: "Generator: die Kosten der Instandhaltung der Gemeinschaftsflächen übersteigen die im Mietvertrag vereinbarte Obergrenze.",
		template:    `<p>Für Instandhaltung und Instandsetzung der Gemeinschaftsflächen werden {{charged}} ({{position_count}}) berechnet. Der Mietvertrag begrenzt diese Kosten auf {{cap_per_year}} im Jahr, für {{period_length}} also auf {{limit_amount}}. Wir widersprechen dem Mehrbetrag von {{claim}}.</p>`},
	{code: "contradiction_rule_maintenance_over_cap", lang: "fr", name: "Entretien des parties communes au-delà du plafond convenu",
		description: "Générateur : les frais d’entretien des parties communes dépassent le plafond convenu au bail.",
		template:    `<p>{{charged}} ({{position_count}}) sont facturés pour l’entretien et la réparation des parties communes. Le bail plafonne ces frais à {{cap_per_year}} par an, soit {{limit_amount}} pour {{period_length}}. Nous contestons l’excédent de {{claim}}.</p>`},
	{code: "contradiction_rule_maintenance_over_cap", lang: "en", name: "Maintenance of common areas above the agreed cap",
		description: "Generator: the maintenance costs of common areas exceed the cap agreed in the lease.",
		template:    `<p>{{charged}} ({{position_count}}) are charged for maintaining and repairing the common areas. The lease caps these costs at {{cap_per_year}} a year, {{limit_amount}} for {{period_length}}. We object to the excess of {{claim}}.</p>`},
	// maintenance_without_cap: no cap agreed, a warning
	{code: "contradiction_rule_maintenance_without_cap", lang: "de", name: "Instandhaltung Gemeinschaftsflächen ohne Obergrenze",
		description: "Generator (Hinweis): Instandhaltung der Gemeinschaftsflächen berechnet, ohne dass der Mietvertrag sie begrenzt.",
		template:    `<p>Für Instandhaltung und Instandsetzung der Gemeinschaftsflächen werden {{charged}} ({{position_count}}) berechnet, ohne dass der Mietvertrag diese Kosten der Höhe nach begrenzt. Eine Formularklausel, die sie dem Mieter ohne Obergrenze auferlegt, ist unwirksam (BGH, Urteil vom 6. April 2005, XII ZR 158/01). Wir bitten um Erläuterung, auf welcher Vereinbarung die Umlage beruht; einen Betrag fordern wir mit diesem Punkt nicht zurück.</p>`},
	{code: "contradiction_rule_maintenance_without_cap", lang: "fr", name: "Entretien des parties communes sans plafond",
		description: "Générateur (remarque) : entretien des parties communes facturé sans plafond convenu au bail.",
		template:    `<p>{{charged}} ({{position_count}}) sont facturés pour l’entretien et la réparation des parties communes, sans que le bail plafonne ces frais. Une clause type qui les met à la charge du preneur sans plafond est nulle (BGH, arrêt du 6 avril 2005, XII ZR 158/01). Nous vous prions d’indiquer sur quelle convention repose cette refacturation ; nous ne réclamons aucun montant à ce titre.</p>`},
	{code: "contradiction_rule_maintenance_without_cap", lang: "en", name: "Maintenance of common areas without a cap",
		description: "Generator (warning): maintenance of common areas charged though the lease does not cap it.",
		template:    `<p>{{charged}} ({{position_count}}) are charged for maintaining and repairing the common areas, though the lease does not cap these costs. A standard-terms clause putting them on the tenant without a cap is void (BGH, judgment of 6 April 2005, XII ZR 158/01). Please tell us which agreement the charge rests on; we claim no amount on this point.</p>`},
	// billing_period_over_agreed: the lease limits the period, a claim
	{code: "contradiction_rule_billing_period_over_agreed", lang: "de", name: "Abrechnungszeitraum länger als vereinbart",
		description: "Generator: der Abrechnungszeitraum ist länger, als der Mietvertrag zulässt.",
		template:    `<p>Die Abrechnung {{invoice_number}} umfasst den Zeitraum vom {{period_from}} bis {{period_to}} ({{period_length}}). Der Mietvertrag sieht einen Abrechnungszeitraum von höchstens {{agreed_length}} vor; wir widersprechen dem auf die Zeit darüber hinaus entfallenden Anteil von {{claim}}.</p>`},
	{code: "contradiction_rule_billing_period_over_agreed", lang: "fr", name: "Période de décompte plus longue que convenu",
		description: "Générateur : la période de décompte est plus longue que ne le permet le bail.",
		template:    `<p>Le décompte {{invoice_number}} couvre la période du {{period_from}} au {{period_to}} ({{period_length}}). Le bail prévoit une période de décompte de {{agreed_length}} au plus ; nous contestons la part afférente à la période excédentaire, soit {{claim}}.</p>`},
	{code: "contradiction_rule_billing_period_over_agreed", lang: "en", name: "Billing period longer than agreed",
		description: "Generator: the billing period is longer than the lease allows.",
		template:    `<p>The statement {{invoice_number}} covers {{period_from}} to {{period_to}} ({{period_length}}). The lease provides for a billing period of at most {{agreed_length}}; we object to the share for the time beyond that, {{claim}}.</p>`},
	// billing_period_over_12_months: nothing agreed, a warning (its
	// earlier text claimed a share; an unedited copy is replaced)
	{code: "contradiction_rule_billing_period_over_12_months", lang: "de", name: "Abrechnungszeitraum über 12 Monate",
		description: "Generator (Hinweis): der Abrechnungszeitraum ist länger als zwölf Monate, der Mietvertrag begrenzt ihn nicht.",
		template:    `<p>Die Abrechnung {{invoice_number}} umfasst den Zeitraum vom {{period_from}} bis {{period_to}} ({{period_length}}). Nach § 556 Abs. 3 S. 1 BGB ist jährlich abzurechnen; für Geschäftsräume gilt das nur kraft Vereinbarung, und der Mietvertrag regelt den Abrechnungszeitraum nicht. Wir bitten um Erläuterung, weshalb über mehr als {{agreed_length}} abgerechnet wird; einen Betrag fordern wir mit diesem Punkt nicht zurück.</p>`,
		replaces:    `<p>Die Abrechnung {{invoice_number}} umfasst den Zeitraum vom {{period_from}} bis {{period_to}} ({{period_months}} Monate). Abgerechnet werden darf höchstens über zwölf Monate; wir widersprechen dem auf die Zeit darüber hinaus entfallenden Anteil von {{claim}}.</p>`},
	{code: "contradiction_rule_billing_period_over_12_months", lang: "fr", name: "Période de décompte supérieure à 12 mois",
		description: "Générateur (remarque) : la période de décompte dépasse douze mois, le bail ne la limite pas.",
		template:    `<p>Le décompte {{invoice_number}} couvre la période du {{period_from}} au {{period_to}} ({{period_length}}). Le § 556 al. 3 phrase 1 BGB impose un décompte annuel ; pour les locaux commerciaux, il ne s’applique que par convention, et le bail ne fixe pas la période de décompte. Nous vous prions d’expliquer pourquoi le décompte porte sur plus de {{agreed_length}} ; nous ne réclamons aucun montant à ce titre.</p>`,
		replaces:    `<p>Le décompte {{invoice_number}} couvre la période du {{period_from}} au {{period_to}} ({{period_months}} mois). Un décompte ne peut porter que sur douze mois au plus ; nous contestons la part afférente à la période excédentaire, soit {{claim}}.</p>`},
	{code: "contradiction_rule_billing_period_over_12_months", lang: "en", name: "Billing period over 12 months",
		description: "Generator (warning): the billing period is longer than twelve months and the lease does not limit it.",
		template:    `<p>The statement {{invoice_number}} covers {{period_from}} to {{period_to}} ({{period_length}}). § 556 (3) sentence 1 BGB requires an annual settlement; for commercial premises it applies only by agreement, and the lease does not set the billing period. Please explain why the statement covers more than {{agreed_length}}; we claim no amount on this point.</p>`,
		replaces:    `<p>The statement {{invoice_number}} covers {{period_from}} to {{period_to}} ({{period_months}} months). A statement may cover at most twelve months; we object to the share for the time beyond that, {{claim}}.</p>`},
	// the objection letter of a contradiction package
	{code: "contradiction_letter", lang: "de", name: "Widerspruch gegen die Nebenkostenabrechnungen – {{pos_name}}",
		description: "Brief eines Widerspruchspakets: Einleitung, Schluss (linker Text) und Informationsblock (rechte Blöcke).",
		template:    `<p>Sehr geehrte Damen und Herren,</p><p>namens und im Auftrag unserer Mandantin {{company_name}} widersprechen wir für den Standort {{pos_name}} den folgenden Abrechnungen ({{statement_count}}, {{point_count}}, insgesamt {{sum}}):</p>`,
		left:        `<p>Wir bitten Sie, die beanstandeten Beträge zu prüfen und uns binnen vier Wochen eine berichtigte Abrechnung zu übersenden. Zahlungen auf die beanstandeten Beträge erfolgen nur unter Vorbehalt.</p><p>Mit freundlichen Grüßen</p>`,
		right:       []string{`<p>Unser Zeichen: {{package_name}}</p>`, `<p>Standort: {{pos_name}}</p>`, `<p>Datum: {{date}}</p>`}},
	{code: "contradiction_letter", lang: "fr", name: "Contestation des décomptes de charges – {{pos_name}}",
		description: "Lettre d’un dossier de contestations : introduction, conclusion (texte de gauche) et bloc d’informations (blocs de droite).",
		template:    `<p>Madame, Monsieur,</p><p>au nom et pour le compte de notre cliente {{company_name}}, nous contestons pour le point de vente {{pos_name}} les décomptes suivants ({{statement_count}}, {{point_count}}, au total {{sum}}) :</p>`,
		left:        `<p>Nous vous prions d’examiner les montants contestés et de nous adresser un décompte rectifié sous quatre semaines. Tout paiement des montants contestés est effectué sous réserve.</p><p>Veuillez agréer, Madame, Monsieur, nos salutations distinguées.</p>`,
		right:       []string{`<p>Notre référence : {{package_name}}</p>`, `<p>Point de vente : {{pos_name}}</p>`, `<p>Date : {{date}}</p>`}},
	{code: "contradiction_letter", lang: "en", name: "Objection to the service charge statements – {{pos_name}}",
		description: "Letter of a contradiction package: opening, closing (left text) and information block (right-hand blocks).",
		template:    `<p>Dear Sir or Madam,</p><p>on behalf of our client {{company_name}} we object, for the point of sale {{pos_name}}, to the following statements ({{statement_count}}, {{point_count}}, {{sum}} in total):</p>`,
		left:        `<p>Please review the amounts objected to and send us a corrected statement within four weeks. Any payment of the amounts objected to is made under reserve.</p><p>Yours faithfully</p>`,
		right:       []string{`<p>Our reference: {{package_name}}</p>`, `<p>Point of sale: {{pos_name}}</p>`, `<p>Date: {{date}}</p>`}},
}

// seedTextModules adds the product's text modules; existing rows (an
// administrator's wording) are kept.
func seedTextModules(ctx context.Context, tx *db.Tx) error {
	for _, m := range textModules {
		right := make([]any, 5)
		for i := range right {
			if i < len(m.right) {
				right[i] = m.right[i]
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO textmodule (textmodule_name, textmodule_description, textmodule_templatetext,
			textmodule_left_text, textmodule_block_count, textmodule_right_text_1, textmodule_right_text_2, textmodule_right_text_3,
			textmodule_right_text_4, textmodule_right_text_5, textmodule_code, textmodule_language)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			m.name, m.description, m.template, nullable(m.left), len(m.right), right[0], right[1], right[2], right[3], right[4],
			m.code, m.lang); err != nil {
			return fmt.Errorf("seed text module %s/%s: %w", m.code, m.lang, err)
		}
		if m.replaces == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE textmodule SET textmodule_name = ?, textmodule_description = ?, textmodule_templatetext = ?,
			row_version = row_version + 1 WHERE textmodule_code = ? AND textmodule_language = ? AND textmodule_templatetext = ?`,
			m.name, m.description, m.template, m.code, m.lang, m.replaces); err != nil {
			return fmt.Errorf("seed text module %s/%s: replace the earlier wording: %w", m.code, m.lang, err)
		}
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

package seed

import (
	"context"
	"fmt"

	"portfolio/internal/db"
)

// TemplateIndexAdjustment is the code of the letter that announces a rent
// adjustment under an index clause to the other party.
const TemplateIndexAdjustment = "index_adjustment_letter"

// textTemplate is a letter the product writes, in German, French and
// English. The template is read-only; administrators edit its wording as
// the text module of the same code in each language, which the seed makes
// from the template once and never overwrites (decision 0065).
type textTemplate struct {
	code, name string
	de, fr, en string
	// modules name the text module of each language.
	modules map[string]string
}

// templateVariable is a placeholder {{name}} text templates may use.
type templateVariable struct{ name, description string }

var textTemplates = []textTemplate{{
	code: TemplateIndexAdjustment, name: "Index adjustment letter",
	modules: map[string]string{"de": "Schreiben zur Indexanpassung", "fr": "Lettre d'ajustement à l'indice", "en": "Index adjustment letter"},
	de: `<h1>Anpassung der Zahlung „{{payment_name}}“ nach der Wertsicherungsklausel</h1>
<p>Vertrag: {{contract_name}} · Standort: {{pos_name}}</p>
<p>Sehr geehrte Damen und Herren,</p>
<p>nach der im Vertrag vereinbarten Wertsicherungsklausel „{{clause_name}}“ folgt die Zahlung der Entwicklung des {{index_name}}. Der Index hat sich von {{reference_value}} Punkten ({{reference_month}}) auf {{current_value}} Punkte ({{current_month}}) verändert, um {{change_points}} Punkte oder {{change_percent}} %. Davon werden {{transmission_percent}} % übertragen.</p>
<p>Der monatliche Betrag ändert sich daher ab dem <b>{{effective_date}}</b> von {{old_amount}} auf <b>{{new_amount}}</b>. Die Berechnung im Einzelnen:</p>`,
	fr: `<h1>Ajustement du paiement « {{payment_name}} » selon la clause d’indexation</h1>
<p>Contrat : {{contract_name}} · Point de vente : {{pos_name}}</p>
<p>Madame, Monsieur,</p>
<p>Selon la clause d’indexation « {{clause_name}} » convenue au contrat, le paiement suit l’évolution de l’indice {{index_name}}. L’indice est passé de {{reference_value}} points ({{reference_month}}) à {{current_value}} points ({{current_month}}), soit une variation de {{change_points}} points ou {{change_percent}} %. Cette variation est répercutée à hauteur de {{transmission_percent}} %.</p>
<p>Le montant mensuel passe donc, à compter du <b>{{effective_date}}</b>, de {{old_amount}} à <b>{{new_amount}}</b>. Le calcul en détail :</p>`,
	en: `<h1>Adjustment of the payment “{{payment_name}}” under the index clause</h1>
<p>Contract: {{contract_name}} · Point of sale: {{pos_name}}</p>
<p>Dear Sir or Madam,</p>
<p>Under the index clause “{{clause_name}}” of the contract, the payment follows the {{index_name}}. The index moved from {{reference_value}} points ({{reference_month}}) to {{current_value}} points ({{current_month}}), a change of {{change_points}} points or {{change_percent}} %. Of this change, {{transmission_percent}} % is passed on.</p>
<p>The monthly amount therefore changes from {{old_amount}} to <b>{{new_amount}}</b> as of <b>{{effective_date}}</b>. The calculation in detail:</p>`,
}}

// templateModuleDescriptions describe, per language, the text module that
// words a template's letter.
var templateModuleDescriptions = map[string]string{
	"de": "Der Wortlaut des Schreibens (sein Vorlagentext; die übrigen Texte werden nicht verwendet). Platzhalter: die Variablen der Textvorlagen.",
	"fr": "Le libellé de la lettre (son texte modèle ; les autres textes ne sont pas utilisés). Espaces réservés : les variables des modèles de texte.",
	"en": "The wording of the letter (its template text; the other texts are not used). Placeholders: the text template variables.",
}

var templateVariables = []templateVariable{
	{"payment_name", "Name of the recurring payment"},
	{"contract_name", "Name of the contract"},
	{"pos_name", "Point of sale of the contract"},
	{"clause_name", "Name of the index clause"},
	{"index_name", "Name of the price index series"},
	{"reference_month", "Month of the index value the change is measured from"},
	{"reference_value", "Index value of the reference month (in the clause's base year)"},
	{"current_month", "Month of the index value that met the threshold"},
	{"current_value", "Index value of the current month (in the clause's base year)"},
	{"change_points", "Change of the index in points"},
	{"change_percent", "Change of the index in percent"},
	{"transmission_percent", "Share of the change passed on to the payment, in percent"},
	{"old_amount", "Monthly amount before the adjustment"},
	{"new_amount", "Monthly amount after the adjustment"},
	{"effective_date", "Date from which the new amount is due"},
}

// seedTextTemplates adds the letters the product writes and their
// placeholders; existing rows (an administrator's wording) are kept.
func seedTextTemplates(ctx context.Context, tx *db.Tx) error {
	for _, t := range textTemplates {
		if _, err := tx.ExecContext(ctx, `INSERT INTO texttemplate (texttemplate_name, texttemplate_code,
			texttemplate_content_de, texttemplate_content_fr, texttemplate_content_en) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, t.name, t.code, t.de, t.fr, t.en); err != nil {
			return fmt.Errorf("seed text template %s: %w", t.code, err)
		}
	}
	for _, t := range textTemplates {
		for _, lang := range []string{"de", "fr", "en"} {
			// From the stored template: a wording edited there before
			// templates became read-only carries over.
			if _, err := tx.ExecContext(ctx, `INSERT INTO textmodule (textmodule_name, textmodule_description, textmodule_templatetext,
				textmodule_block_count, textmodule_code, textmodule_language)
				SELECT ?, ?, texttemplate_content_`+lang+`, 0, texttemplate_code, ? FROM texttemplate WHERE texttemplate_code = ?
				ON CONFLICT DO NOTHING`, t.modules[lang], templateModuleDescriptions[lang], lang, t.code); err != nil {
				return fmt.Errorf("seed text module of template %s/%s: %w", t.code, lang, err)
			}
		}
	}
	for _, v := range templateVariables {
		if _, err := tx.ExecContext(ctx, `INSERT INTO texttemplate_variable (texttemplate_variable_name,
			texttemplate_variable_description) VALUES (?, ?) ON CONFLICT DO NOTHING`, v.name, v.description); err != nil {
			return fmt.Errorf("seed text template variable %s: %w", v.name, err)
		}
	}
	return nil
}

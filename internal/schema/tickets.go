package schema

// tickets: boards with their columns and priorities, default deadline
// values and tickets. Migrations 0006_tickets.sql, 0020_ticket_updated.sql,
// 0033_ticket_rank.sql.
func tickets() ([]Entity, []Link) {
	defaultHours := func(field, label string) Field {
		return integer(field).def(Int(24)).minValue(0).label(label)
	}
	entities := []Entity{
		{
			Name: "priority", Small: true, Doc: "A ticket priority with its order, smiley and colour.",
			Tenant: global,
			Fields: []Field{
				name("priority_name"),
				integer("priority_order").label("Order").index(),
				str("priority_smiley", lenCode).kind(KindSmiley).label("Smiley"),
				str("priority_color", 7).kind(KindColor).label("Colour").
					regex(`^#[0-9A-Fa-f]{6}$`, "Pick a colour as #RRGGBB."),
			},
		},
		{
			Name: "board", Small: true, Doc: "A kanban board: ordered columns, document types and priorities.",
			Tenant: global,
			Fields: []Field{
				name("board_name"),
				memo("board_description").optional(),
				integer("board_amount_columnx").label("Columns").derive(CountOf("columnx")),
			},
			Relations: []Relation{
				manyToMany("columnx", "columnx", "board_columnx"),
				manyToMany("documenttype", "documenttype", "board_documenttype"),
				manyToMany("column_priority", "priority", "board_priority"),
				hasMany("tickets", "ticket", "board_id"),
			},
		},
		{
			Name: "columnx", Small: true, Doc: "A board column; quality gates and stamps mark special steps.",
			Tenant: global,
			Fields: []Field{
				name("columnx_name"),
				memo("columnx_description").optional(),
				flag("is_qualitygate").label("Quality gate"),
				flag("has_stamp").label("Stamp"),
				ref("team_id", "team").optional(),
			},
			Relations: []Relation{manyToMany("board", "board", "board_columnx")},
		},
		{
			Name: "defaultvalue", Doc: "Default deadline values in hours, globally (no board) or per board.",
			Label: []string{"board_id"}, Tenant: global, Unique: [][]string{{"board_id"}},
			Fields: []Field{
				ref("board_id", "board").optional().cascade(),
				defaultHours("defaultvalue_deadline_period", "Deadline period"),
				defaultHours("defaultvalue_yellow", "Yellow"),
				defaultHours("defaultvalue_red", "Red"),
				defaultHours("defaultvalue_prediction_value", "Prediction value"),
				defaultHours("defaultvalue_prediction_info", "Prediction info"),
				defaultHours("defaultvalue_deadline_info", "Deadline info"),
			},
		},
		{
			Name: "ticket", Doc: "A ticket of a point of sale on a board column, with yellow and red deadlines.",
			Tenant: byCustomer(Path{"pos_id", "company_id", "customergroup_id"}),
			Fields: []Field{
				name("ticket_name"),
				memo("ticket_description").optional(),
				ref("pos_id", "pos"),
				ref("contract_id", "contract").optional().where("pos_id", "pos_id"),
				ref("priority_id", "priority"),
				ref("board_id", "board"),
				ref("columnx_id", "columnx").label("Column").whereLinked("board", "board_id"),
				ref("user_id", "user").optional().kind(KindCustomList).label("Assigned user"),
				ref("team_id", "team").optional().kind(KindCustomList),
				stamp("ticket_yellow_deadline").label("Yellow deadline").rules(Rule{Kind: RuleNotPast}).index(),
				stamp("ticket_red_deadline").label("Red deadline").rules(Rule{Kind: RuleNotPast}).
					after("ticket_yellow_deadline").index(),
				stamp("ticket_deadline").optional().def(Text("2000-01-01 00:00:00")).hideOnCreate(),
				integer("ticket_progress").def(Int(10)).minValue(0).maxValue(100).label("Progress (%)"),
				flag("ticket_closed").label("Closed").index(),
				flag("ticket_updated").readOnly().hideOnCreate().label("Updated").index(),
				str("ticket_deadline_status", lenCode).label("Deadline status").
					derive(DeadlineStatus("ticket_yellow_deadline", "ticket_red_deadline", "ticket_closed")).
					withOptions(opt("before_deadline", "Before deadline"), opt("critical_yellow", "Critical"),
						opt("over_due_red", "Overdue")),
				str("board_name", lenName).label("Board").derive(RefOf("board_name", "board_id")),
				str("column_name", lenName).label("Column").derive(RefOf("columnx_name", "columnx_id")),
				str("priority_name", lenName).label("Priority").derive(RefOf("priority_name", "priority_id")),
				ref("ticket_created_by", "user").label("Created by").derive(CurrentUser(true)).setNull(),
				stamp("ticket_creation_time").label("Created").derive(Now(true)).index(),
				// The order within the column, set by the ticket module
				// (decision 0027, migration 0033).
				integer("ticket_rank").def(Int(0)).readOnly().hideOnCreate().index().label("Order in the column"),
			},
			Relations: []Relation{
				manyToMany("document", "document", "ticket_document"),
				hasMany("email", "email", "ticket_id"),
			},
		},
	}
	links := []Link{
		link("board_columnx", "board", "columnx", integer("rank_order").def(Int(0)).label("Order")),
		link("board_priority", "board", "priority", integer("rank_order").def(Int(0)).label("Order")),
	}
	return entities, links
}

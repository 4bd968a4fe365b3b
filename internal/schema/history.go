package schema

// history: the track record the writer appends to on every change.
// Migration 0008_history.sql.
func history() ([]Entity, []Link) {
	return []Entity{{
		Name: "trackrecord", Doc: "One recorded change or event: what (category, row), how (type, status), who and when.",
		Label: []string{"trackrecord_category", "trackrecord_timestamp"}, Tenant: global,
		Limits: Limits{NoCreate: true, NoUpdate: true, NoDelete: true},
		Fields: []Field{
			stamp("trackrecord_timestamp").label("Time").derive(Now(true)).index(),
			str("trackrecord_type", lenCode).readOnly().label("Type").index(),
			str("trackrecord_category", lenShort).readOnly().label("Category").search(),
			integer("trackrecord_row_id").readOnly().optional().label("Record"),
			str("trackrecord_status", lenShort).readOnly().optional().label("Status"),
			memo("trackrecord_comment").readOnly().optional().label("Comment"),
			str("trackrecord_changes", 0).kind(KindTextarea).readOnly().optional().label("Changes"),
			ref("user_id", "user").readOnly().optional().setNull().label("User"),
		},
	}}, nil
}

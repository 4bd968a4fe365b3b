package contracts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"portfolio/internal/httpapi"
	"portfolio/internal/platform/deadline"
)

// lightOf is the traffic light of a deadline with notice date notice and
// status as of today (deadline.Thresholds.LightOf); a deadline that is not
// active, used up (expired), or without a notice date, has none (""): only
// active deadlines alert.
func lightOf(t deadline.Thresholds, notice, status string, expired bool, today time.Time) deadline.Light {
	if status != StatusActive || expired || len(notice) < 10 {
		return ""
	}
	d, err := time.Parse(time.DateOnly, notice[:10])
	if err != nil {
		return ""
	}
	return t.LightOf(d, today)
}

// withLights adds "traffic_light" to each deadline row as of today, and
// the rule that produced its notice date ("rule", and "explanation" in
// lang).
func (s *Service) withLights(lang string, rows []json.RawMessage, today time.Time) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(rows))
	for i, raw := range rows {
		m := map[string]any{}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("contracts: decode deadline: %w", err)
		}
		notice, _ := m[fieldNotice].(string)
		status, _ := m[fieldStatus].(string)
		expired, _ := m[fieldExpired].(float64)
		m["traffic_light"] = lightOf(s.lights, notice, status, expired == 1, today)
		rule := storedExplanation(m)
		m["rule"], m["explanation"] = rule, s.Explain(lang, rule)
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("contracts: encode deadline: %w", err)
		}
		out[i] = b
	}
	return out, nil
}

// lightThresholds serves GET /contracts/deadlines/lights: the days before a
// notice date at which an active deadline turns red and yellow, so the app
// colours its lists exactly as the server's settings say.
func (h *handler) lightThresholds(w http.ResponseWriter, _ *http.Request) error {
	httpapi.WriteJSON(w, http.StatusOK, map[string]int{"red_days": h.s.lights.Red, "yellow_days": h.s.lights.Yellow})
	return nil
}

package main

import "testing"

// TestGCSettingsYieldToTheEnvironment: the server's collector defaults
// apply only where the operator set neither GOGC nor GOMEMLIMIT.
func TestGCSettingsYieldToTheEnvironment(t *testing.T) {
	cases := []struct {
		env     map[string]string
		percent int
		limit   int64
	}{
		{map[string]string{}, defaultGCPercent, defaultMemoryLimit},
		{map[string]string{"GOGC": "100"}, -1, defaultMemoryLimit},
		{map[string]string{"GOMEMLIMIT": "512MiB"}, defaultGCPercent, -1},
		{map[string]string{"GOGC": "off", "GOMEMLIMIT": "2GiB"}, -1, -1},
	}
	for _, c := range cases {
		percent, limit := gcSettings(func(k string) string { return c.env[k] })
		if percent != c.percent || limit != c.limit {
			t.Errorf("env %v: percent %d, limit %d; want %d, %d", c.env, percent, limit, c.percent, c.limit)
		}
	}
}

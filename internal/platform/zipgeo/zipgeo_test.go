package zipgeo

import "testing"

func TestLookup(t *testing.T) {
	cases := []struct {
		country, zip string
		lat, lon     float32
	}{{"DE", "10115", 52.5, 13.4}, {"fr", "75001", 48.9, 2.3}, {"AT", "1010", 48.2, 16.4}, {"CH", "8001", 47.4, 8.5}}
	for _, c := range cases {
		p, ok, err := Lookup(c.country, c.zip)
		if err != nil || !ok {
			t.Fatalf("%s %s: %v %v", c.country, c.zip, ok, err)
		}
		if d := p.Lat - c.lat; d > 0.2 || d < -0.2 {
			t.Errorf("%s %s: lat %v", c.country, c.zip, p.Lat)
		}
		if d := p.Lon - c.lon; d > 0.2 || d < -0.2 {
			t.Errorf("%s %s: lon %v", c.country, c.zip, p.Lon)
		}
	}
	if _, ok, _ := Lookup("DE", "00000"); ok {
		t.Error("00000 found")
	}
}

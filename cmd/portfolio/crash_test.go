package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"portfolio/internal/crashtest"
	"portfolio/internal/testkit"
)

// childEnv makes the test binary act as the portfolio binary, so that the
// crash test kills and restarts the real main without a separate build.
const childEnv = "PORTFOLIO_CRASHTEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCrashSafety kills the server with SIGKILL at random moments while
// clients write through its API and checks after each restart that every
// acknowledged write is there, nothing unacknowledged is half there, history
// matches its records and no document file is left behind
// (internal/crashtest), on SQLite and PostgreSQL. Three kills by default;
// PORTFOLIO_CRASHTEST_KILLS=N runs longer (docs/reliability.md).
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	t.Parallel()
	kills := 3
	if v := os.Getenv("PORTFOLIO_CRASHTEST_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PORTFOLIO_CRASHTEST_KILLS=%q: want a positive number", v)
		}
		kills = n
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, pgAdmin string) {
		t.Parallel()
		port, err := crashtest.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		res, err := crashtest.Run(context.Background(), crashtest.Config{
			Command: []string{exe}, Env: []string{childEnv + "=1"}, PostgresAdminURL: pgAdmin,
			Kills: kills, Writers: 4, MinUp: 500 * time.Millisecond, MaxUp: 1500 * time.Millisecond,
			Port: port, WorkDir: t.TempDir(), Log: &log,
		})
		t.Log(log.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Log(res.Summary())
		if res.Acknowledged == 0 || res.Kills != kills {
			t.Errorf("nothing tested: %s", res.Summary())
		}
		for _, l := range res.Lost {
			t.Error("lost:", l)
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, "") })
	t.Run("postgres", func(t *testing.T) {
		admin := os.Getenv(testkit.PostgresURLEnv)
		if admin == "" {
			if os.Getenv(testkit.RequirePostgresEnv) == "1" {
				t.Fatalf("%s is not set but %s=1", testkit.PostgresURLEnv, testkit.RequirePostgresEnv)
			}
			t.Skipf("SKIPPED ON POSTGRESQL: set %s to run the crash test on PostgreSQL too", testkit.PostgresURLEnv)
		}
		run(t, admin)
	})
}

// Command crashtest kills a running portfolio server with SIGKILL at random
// moments while clients write through its API, restarts it, and checks
// that every acknowledged write is there and no unacknowledged one is half
// there (internal/crashtest). It exits 1 when anything was lost.
//
//	go build -o bin/portfolio ./cmd/portfolio
//	go run ./tools/crashtest -bin bin/portfolio -kills 20
//	go run ./tools/crashtest -bin bin/portfolio -kills 20 -postgres postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"portfolio/internal/crashtest"
)

func main() {
	cfg := crashtest.Config{Log: os.Stderr}
	bin := flag.String("bin", "bin/portfolio", "the portfolio binary")
	flag.StringVar(&cfg.PostgresAdminURL, "postgres", "", "run on a fresh database on this PostgreSQL server (admin URL; empty: SQLite)")
	flag.IntVar(&cfg.Kills, "kills", 10, "how many times the server is killed")
	flag.IntVar(&cfg.Writers, "writers", 6, "concurrent writing clients")
	flag.DurationVar(&cfg.MinUp, "min-up", 700*time.Millisecond, "shortest time under load before a kill")
	flag.DurationVar(&cfg.MaxUp, "max-up", 3*time.Second, "longest time under load before a kill")
	flag.Int64Var(&cfg.Seed, "seed", 0, "random seed (0: from the clock; a run prints its seed)")
	flag.IntVar(&cfg.Port, "port", 0, "loopback port of the server (0: a free one)")
	flag.StringVar(&cfg.WorkDir, "work-dir", "", "keep the data directory and server log here (empty: a temporary directory)")
	flag.Parse()
	cfg.Command = []string{*bin}
	if cfg.Port == 0 {
		p, err := crashtest.FreePort()
		if err != nil {
			fmt.Fprintln(os.Stderr, "crashtest:", err)
			os.Exit(2)
		}
		cfg.Port = p
	}
	res, err := crashtest.Run(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(2)
	}
	fmt.Println(res.Summary())
	for _, l := range res.Lost {
		fmt.Println("LOST:", l)
	}
	if len(res.Lost) > 0 {
		os.Exit(1)
	}
}

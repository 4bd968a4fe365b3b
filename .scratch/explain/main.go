package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite"
)

func main() {
	d, err := sql.Open("sqlite", os.Args[1])
	if err != nil {
		panic(err)
	}
	q := os.Args[2]
	args := []any{}
	for _, a := range os.Args[3:] {
		args = append(args, a)
	}
	rows, err := d.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		panic(err)
	}
	for rows.Next() {
		var id, parent, notused int
		var detail string
		rows.Scan(&id, &parent, &notused, &detail)
		fmt.Println(id, parent, detail)
	}
	t := time.Now()
	for i := 0; i < 20; i++ {
		r, err := d.Query(q, args...)
		if err != nil {
			panic(err)
		}
		n := 0
		for r.Next() {
			n++
		}
		r.Close()
		if i == 0 {
			fmt.Println("rows", n)
		}
	}
	fmt.Println("avg", time.Since(t)/20, strings.Count(q, "?"))
}

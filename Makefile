# Portfolio: `make run` builds and runs the product with demo data;
# `make test` runs every test. Both install what they need themselves.

SHELL := /bin/bash
BIN := bin/portfolio
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
DATA_DIR ?= data
ADDR ?= :8080

.PHONY: run build web-deps web-build go-build test test-go test-web test-e2e fuzz bench clean

## run: build everything, migrate, seed demo data and serve on http://localhost:8080
run: build
	./$(BIN) seed --demo --data-dir $(DATA_DIR)
	./$(BIN) serve --data-dir $(DATA_DIR) --addr $(ADDR)

## build: the SPA, then the binary with the SPA embedded
build: web-build go-build

web-deps:
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js 20 and npm (apt-get install nodejs npm)"; exit 1; }
	cd web && npm ci --no-audit --no-fund

web-build: web-deps
	cd web && npm run build

go-build:
	go build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/portfolio

## test: every test: Go (SQLite and PostgreSQL), fuzz seeds, web unit tests, browser tests
test:
	bash scripts/test.sh

test-go:
	bash scripts/test.sh go

test-web:
	bash scripts/test.sh web

test-e2e:
	bash scripts/test.sh e2e

## fuzz: run every fuzz target for FUZZTIME (default 10s) each
fuzz:
	bash scripts/fuzz.sh

clean:
	rm -rf bin web/dist/assets web/dist/index.html

# agentstream: build, test, lint, fuzz, bench. Tools are pinned in go.mod
# (tool directives) and come from the Go module proxy: nothing to install.

GO       ?= go
FUZZTIME ?= 20s
BENCHTIME ?= 1s
PKGS     := ./...

.PHONY: all build test vet lint fuzz bench perf docs clean test-clients

all: build test

build:
	$(GO) build -o bin/agentstream .

## test: vet, then every test with the race detector (what CI runs)
test: vet
	$(GO) test -race -count=1 $(PKGS)

vet:
	$(GO) vet $(PKGS)

## lint: staticcheck and gofumpt (pinned via go.mod tool directives)
lint:
	$(GO) tool staticcheck $(PKGS)
	@out=$$($(GO) tool gofumpt -l . | grep -v '^testdata/'); \
	if [ -n "$$out" ]; then echo "gofumpt would reformat:"; echo "$$out"; exit 1; fi

## fuzz: a short run of every fuzz target (FUZZTIME each)
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$f"; \
			$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=5s $$pkg; \
		done; \
	done

## bench: every benchmark, with allocations; compare runs with benchstat
bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS) | tee bench.out

## perf: throughput and peak RSS of every convert pair and assemble -o json
## on generated inputs of PERFSIZES MB, against jq -c . (needs jq:
## apt-get install -y jq); see docs/performance.md. Not part of test.
PERFSIZES ?= 20,200
PERFRUNS  ?= 1
perf: build
	@command -v jq >/dev/null || { echo "perf needs jq: apt-get install -y jq"; exit 1; }
	$(GO) run ./internal/perfrun -bin bin/agentstream -testdata testdata -sizes $(PERFSIZES) -runs $(PERFRUNS)

## docs: regenerate docs/cli (checked for staleness by the tests)
docs:
	$(GO) test ./cmd -run TestCLIDocs -update

## test-clients: the official clients (pinned in clients/package-lock.json, from the npm
## registry into CLIENTS_DIR) read our output of every corpus recording; see clients/README.md
CLIENTS_DIR ?= $(or $(TMPDIR),/tmp)/agentstream-clients
CORPUS      ?= $(or $(firstword $(wildcard ../shared/corpus ../../shared/corpus)),testdata)
test-clients: build
	@command -v node >/dev/null 2>&1 || { echo "test-clients: node is not on PATH"; exit 1; }
	mkdir -p $(CLIENTS_DIR)
	cp clients/package.json clients/package-lock.json clients/run.mjs clients/stub.mjs $(CLIENTS_DIR)/
	cd $(CLIENTS_DIR) && npm ci --omit=optional --no-audit --no-fund --loglevel=error
	node $(CLIENTS_DIR)/run.mjs $(CURDIR)/bin/agentstream $(CLIENTS_DIR)/stub.mjs $(abspath $(CORPUS))

clean:
	rm -rf bin bench.out

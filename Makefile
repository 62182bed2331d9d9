# agentstream: build, test, lint, fuzz, bench. Tools are pinned in go.mod
# (tool directives) and come from the Go module proxy: nothing to install.

GO       ?= go
FUZZTIME ?= 20s
BENCHTIME ?= 1s
PKGS     := ./...

.PHONY: all build test vet lint fuzz bench perf docs clean

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

clean:
	rm -rf bin bench.out

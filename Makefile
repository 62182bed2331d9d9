# agentstream: build, test, lint, fuzz, bench. Tools are pinned in go.mod
# (tool directives) and come from the Go module proxy: nothing to install.

GO       ?= go
FUZZTIME ?= 20s
BENCHTIME ?= 1s
PKGS     := ./...

# The release targets (.goreleaser.yaml builds the same six).
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
# make test builds one of each system's two: cross checks that amd64 and arm64
# compile the same files of the module, and each build compiles the standard
# library and the dependencies for its platform anew.
test: PLATFORMS := linux/amd64 darwin/arm64 windows/amd64

.PHONY: all build cross test test-browser screenshots vet lint fuzz bench perf perf-hostile pgo docs clean test-clients test-sdk

all: build test

build:
	$(GO) build -o bin/agentstream .

## test: vet, the cross builds of each system, every test with the race detector, then the two whole-corpus
## sweeps it samples without it: the cut sweep over every line boundary, and every recording read
## as every other format (what CI runs). GORACE turns off the second a race-built binary sleeps at
## each exit 0 (each test binary, each CLI run of the scripts), waiting for goroutines still running.
test: vet cross
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -race -count=1 -pgo=off -timeout 25m $(PKGS)
	$(GO) test -count=1 -pgo=off -timeout 25m -run '^TestCutStaysCut$$' ./internal/corpustest/
	$(GO) test -count=1 -pgo=off -timeout 25m -run '^TestEveryFormatReadAsEveryOther$$' ./cmd/

## cross: go build for every release target (compiles only, nothing written); first, that
## amd64 and arm64 compile the same files of the module on each system (what lets test build one)
cross:
	@set -e; files='{{.ImportPath}} {{.GoFiles}} {{.CgoFiles}} {{.SFiles}}'; for os in linux darwin windows; do \
		[ "$$(GOOS=$$os GOARCH=amd64 $(GO) list -f "$$files" $(PKGS))" = "$$(GOOS=$$os GOARCH=arm64 $(GO) list -f "$$files" $(PKGS))" ] || \
		{ echo "cross: $$os/amd64 and $$os/arm64 compile different files of the module: add both to test's PLATFORMS"; exit 1; }; \
	done; \
	for p in $(PLATFORMS); do \
		echo "build $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -pgo=off -o /dev/null $(PKGS); \
	done

# CHROMIUM installs Debian's chromium when it is missing, or says why the
# target is skipped and stops it (exit 0) where it cannot be installed.
CHROMIUM = command -v chromium >/dev/null 2>&1 || { \
	echo "installing chromium (apt-get install -y chromium)"; \
	apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1; }; \
	}; \
	command -v chromium >/dev/null 2>&1 || { echo "$@: SKIPPED: chromium is missing and apt-get install -y chromium failed (it needs root and Debian's apt)"; exit 0; }

## test-browser: every recording's -o html page in headless chromium (installed when missing)
test-browser:
	@$(CHROMIUM); \
	$(GO) test -tags browser -count=1 -timeout 30m -run '^TestBrowser' ./render/htmlview/

## screenshots: the README's pictures of -o html pages, into docs/
screenshots:
	@$(CHROMIUM); \
	$(GO) test -tags browser -count=1 -run '^TestBrowserScreenshots$$' ./render/htmlview/ -screenshots $(CURDIR)/docs

# -pgo=off as the builds and tests: with default.pgo, vet compiles every package
# the binary imports twice (with and without the profile).
vet:
	$(GO) vet -pgo=off $(PKGS)

## lint: staticcheck and gofumpt (pinned via go.mod tool directives)
lint:
	$(GO) tool staticcheck $(PKGS)
	@out=$$($(GO) tool gofumpt -l . | grep -v '^testdata/'); \
	if [ -n "$$out" ]; then echo "gofumpt would reformat:"; echo "$$out"; exit 1; fi

## fuzz: a short run of every fuzz target (FUZZTIME each). A run that fails
## with "context deadline exceeded" at the end of FUZZTIME and writes no
## failing input is Go's coordinator race (go.dev/issue/75804, fixed in Go
## 1.27), counted as a flake; any failing input written fails the target.
fuzz:
	@set -e; flakes=0; for pkg in $$($(GO) list $(PKGS)); do \
		dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$f"; \
			before=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
			if ! $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=5s $$pkg > fuzz.out 2>&1; then \
				cat fuzz.out; \
				after=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
				if [ "$$after" = "$$before" ] && grep -q 'context deadline exceeded' fuzz.out; then \
					echo "fuzz $$pkg $$f: context deadline exceeded, no failing input: Go's race at the end of -fuzztime (go.dev/issue/75804), not a failure"; \
					flakes=$$((flakes+1)); \
				else rm -f fuzz.out; exit 1; fi; \
			else tail -3 fuzz.out; fi; \
		done; \
	done; rm -f fuzz.out; echo "fuzz: every target ran; $$flakes ended by Go's deadline race"

## bench: every benchmark, with allocations; compare runs with benchstat
bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS) | tee bench.out

## test-sdk: the official openai Node SDK reads our openai-chat and
## openai-responses output of every corpus run (clients/openai); installs the
## pinned openai npm package into a temporary folder
OPENAI_NPM ?= openai@7.57.0
test-sdk:
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	npm install --prefix "$$dir" --no-audit --no-fund --silent $(OPENAI_NPM); \
	OPENAI_SDK_DIR="$$dir/node_modules/openai" $(GO) test -count=1 -run TestSDK -v ./clients/openai/

## perf: CPU time and peak RSS of every convert pair of the seven wire formats
## and assemble -o json, on inputs of PERFSIZES MB grown from each format's
## real recordings (CORPUS, else testdata), against jq -c ., gojq and a
## json.Valid-per-line ceiling on the same input, median of PERFRUNS
## interleaved rounds (needs jq: apt-get install -y jq; gojq is built from
## the Go module proxy); then usage --by day --json against ccusage daily
## (installed from the npm registry) on 200 MB session trees; see
## docs/performance.md and docs/usage.md. Not part of test.
PERFSIZES ?= 20,200
PERFRUNS  ?= 3
# ccusage's last release with a native linux-x64 package (usage's perf row)
CCUSAGE_NPM ?= ccusage@20.0.24
perf: build
	@command -v jq >/dev/null || { echo "installing jq (apt-get install -y jq)"; \
		apt-get install -y jq >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y jq >/dev/null 2>&1; }; }
	@command -v jq >/dev/null || { echo "perf needs jq, and apt-get install -y jq failed (it needs root and Debian's apt)"; exit 1; }
	$(GO) run ./tools/perf -bin bin/agentstream -corpus $(CORPUS) -testdata testdata -sizes $(PERFSIZES) -runs $(PERFRUNS)
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	npm install --prefix "$$dir" --no-audit --no-fund --silent $(CCUSAGE_NPM); \
	cc=$$(find "$$dir/node_modules/@ccusage" -path '*/bin/ccusage' -type f | head -1); chmod +x "$$cc"; \
	$(GO) run ./tools/perf/usage -bin bin/agentstream -ccusage "$$cc" -testdata testdata -mb 200 -runs $(PERFRUNS)

## perf-hostile: peak RSS and CPU time of every command (convert to each format
## written, assemble -o text/json/html, validate, verify, usage) on the hostile
## inputs of docs/limits.md (1M agents, 1M open calls, one chunk of 200k
## choices), rows over 64 MB marked (issue 31); the table docs/limits.md shows.
## Not part of test.
perf-hostile: build
	$(GO) run ./tools/perf -bin bin/agentstream -hostile -runs 1

## pgo: regenerate default.pgo, the CPU profile go build optimises the binary with
## (profile-guided optimisation): every row of perf on its 20 MB inputs, run in
## process; see docs/performance.md. Not part of test.
pgo: build
	$(GO) run ./tools/perf -corpus $(CORPUS) -testdata testdata -sizes 20 -pgo default.pgo

## docs: regenerate docs/cli, docs/man, docs/validate.md's rule table, docs/verify.md's lacks table and docs/schema (checked for staleness by the tests)
docs:
	$(GO) test ./cmd -run 'TestCLIDocs|TestManPages' -update
	$(GO) test ./validate -run TestRulesDoc -update
	$(GO) test ./verify -run TestLacksDoc -update
	$(GO) test ./tools/schemagen -run TestSchemasUpToDate -update

## test-clients: the official clients (pinned in clients/package-lock.json, from the npm
## registry into CLIENTS_DIR) read our output of every corpus recording; see clients/README.md
CLIENTS_DIR ?= $(or $(TMPDIR),/tmp)/agentstream-clients
CORPUS      ?= $(or $(firstword $(wildcard ../shared/corpus ../../shared/corpus)),testdata)
test-clients: build
	@command -v node >/dev/null 2>&1 || { echo "test-clients: node is not on PATH"; exit 1; }
	mkdir -p $(CLIENTS_DIR)
	cp clients/package.json clients/package-lock.json clients/*.mjs $(CLIENTS_DIR)/
	cd $(CLIENTS_DIR) && npm ci --omit=optional --no-audit --no-fund --loglevel=error
	node $(CLIENTS_DIR)/run.mjs $(CURDIR)/bin/agentstream $(CLIENTS_DIR)/stub.mjs $(abspath $(CORPUS))

clean:
	rm -rf bin bench.out

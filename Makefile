# svcui development targets. `make` alone lists them.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
BIN       := bin/svcui
TESTFLAGS ?=
FUZZTIME  ?= 10s

# Stamped into main.version/commit/date; recursively expanded so `make help` runs no git.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
DATE    ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS  = -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
# Builds leave net/http's HTTP/2 out (half a megabyte); the console and the sandbox speak
# HTTP/1.1 in every build (README, "Binary size"), so tests without the tag test the same.
TAGS     := nethttpomithttp2

# The tests that skip under -race (raceEnabled): `make test` runs them without it.
NORACE_TESTS := ^(TestConsoleKeepsAtMostFourTimesALargeProjectList|TestConsolePeaksUnderFourTimesALargeProjectList|TestAllServicesKeepAtMost16MB|TestIdleAllServicesSpendTheRollingShare|TestHistoryReadsOnlyTheEndOfAHugeFile)$$

# The race detector needs cgo (a C compiler); without one, tests run without it and say so.
RACE = $(if $(filter 1,$(shell $(GO) env CGO_ENABLED)),-race,)

# A race-enabled binary sleeps 1 s at exit (the detector's atexit_sleep_ms, meant for C++
# threads still running): 44 test binaries, 44 s in which `go test` holds one of its two
# slots for nothing. A race is reported when it happens, and exit still waits for a report
# being written; only goroutines a test leaked past the last test lose that second.
# `make test GORACE=` restores the default.
GORACE ?= atexit_sleep_ms=0
export GORACE

# The race step's test binaries (and the compiler) collect when the heap has grown by
# four times what they keep, not once: less CPU for `make test`, about 2.1 GB resident
# for the largest package. The step without -race keeps Go's default, as its memory
# tests measure with the console's own setting.
TEST_GOGC ?= 400

# How many test binaries (and builds) `go test` runs at once: one more than the cores
# (go test's default is as many). A package whose tests wait on clocks (internal/ui's
# flows wait on refresh intervals, latencies and retries: 40 s of wall for 25 s of CPU)
# holds a slot while it waits, and a core idled for it: on two cores, 116-119 s with two
# slots against 100-106 s with three, side by side (README, "How long make test takes").
TEST_P ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) + 1 )))

GORELEASER_VERSION := v2.14.3
GOBIN      = $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)
GORELEASER = $(or $(shell command -v goreleaser 2>/dev/null),$(GOBIN)/goreleaser)

.PHONY: help build size run sandbox test clients e2e faults sample-logs bench fuzz lint snapshot goreleaser-install goreleaser-check clean

help: ## list the targets
	@echo "usage: make TARGET"
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  %-20s %s\n", $$1, $$2}'

build: ## build bin/svcui with the version stamped from git
	$(GO) build -trimpath -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $(BIN) .

# The release binary as goreleaser builds it (stripped, no cgo, -trimpath), measured.
SIZE_BIN  := $(or $(TMPDIR),/tmp)/svcui-size
SIZE_MAX  := 16777216

size: ## build the stripped release binary and print its size in bytes against the 16 MiB bound
	CGO_ENABLED=0 $(GO) build -trimpath -tags '$(TAGS)' -ldflags '-s -w' -o $(SIZE_BIN) .
	@wc -c < $(SIZE_BIN) | awk -v max=$(SIZE_MAX) '{ printf "stripped release binary: %d bytes (%.2f MiB), bound %d bytes (16 MiB): %s by %d\n", \
		$$1, $$1 / 1048576, max, ($$1 <= max ? "within" : "OVER"), ($$1 <= max ? max - $$1 : $$1 - max) }'

run: ## start the console on the in-process sandbox with demo data
	$(GO) run -tags '$(TAGS)' -ldflags '$(LDFLAGS)' . --sandbox

sandbox: ## serve the sandbox platform alone on 127.0.0.1:8080 (prints URL and tokens)
	$(GO) run -tags '$(TAGS)' -ldflags '$(LDFLAGS)' . sandbox

# No `go vet ./...` here: it compiled every package a second time (without -race), about
# 25 s of CPU from a fresh clone. `make lint` runs the whole of vet (CI runs lint first), and
# `go test` runs vet's high-confidence checks on every package it tests.
test: ## every test with the race detector, and beside it the few that skip under it without (vet: make lint; TESTFLAGS=...)
	@if [ -z "$(RACE)" ]; then echo "note: cgo is off (no C compiler?), so tests run without -race; apt-get install gcc to enable it" >&2; fi
	@# Memory bounds and one-goroutine measurements skip under the race detector, which
	@# multiplies memory and CPU; they run without it, beside the race step (they share no
	@# build with it) at a lower priority, so that they take the moments its tests wait
	@# (they measure memory and counts, not time), and their output follows.
	@out=$$(mktemp); trap 'rm -f "$$out"' EXIT; \
	$(if $(RACE),nice -n 19 $(GO) test -count=1 -run '$(NORACE_TESTS)' $(TESTFLAGS) ./internal/ui/ ./internal/search/ > "$$out" 2>&1 & norace=$$!;,) \
	echo "GOGC=$(TEST_GOGC) $(GO) test -p $(TEST_P) $(RACE) $(TESTFLAGS) ./..."; \
	GOGC=$(TEST_GOGC) $(GO) test -p $(TEST_P) $(RACE) $(TESTFLAGS) ./... || status=$$?; \
	$(if $(RACE),wait $$norace || status=$$?; echo "without -race: $(GO) test -count=1 -run '$(NORACE_TESTS)' ./internal/ui/ ./internal/search/"; cat "$$out";,) \
	exit $${status:-0}

clients: ## drive the search emulation with the official Python and JavaScript clients (needs: apt-get install python3-elasticsearch; Node.js; npm ci in scripts/clients)
	@/usr/bin/python3 -c 'import elasticsearch' 2>/dev/null || echo "note: python3-elasticsearch is missing (apt-get install python3-elasticsearch); its workflow skips" >&2
	@[ -f scripts/clients/node_modules/@opensearch-project/opensearch/package.json ] || echo "note: opensearch-js is missing (cd scripts/clients && npm ci); its workflow skips" >&2
	$(GO) test -count=1 -run 'TestOfficialClientWorkflows' -v ./internal/sandbox/opensearch/

e2e: build ## drive the built binary in tmux against `svcui sandbox` (scripts/e2e.sh)
	@if [ ! -f scripts/e2e.sh ]; then echo "scripts/e2e.sh does not exist yet" >&2; exit 1; fi
	SVCUI_BIN=$(CURDIR)/$(BIN) bash scripts/e2e.sh

FREEZE_VERSION := v0.2.2
FREEZE = $(or $(shell command -v freeze 2>/dev/null),$(GOBIN)/freeze)

.PHONY: screenshots
screenshots: build ## render the README's screenshots to assets/screenshots/*.svg (tmux; installs freeze v0.2.2 when missing)
	@if ! command -v freeze >/dev/null 2>&1 && [ ! -x "$(GOBIN)/freeze" ]; then \
		echo "installing freeze $(FREEZE_VERSION) into $(GOBIN)"; \
		$(GO) install github.com/charmbracelet/freeze@$(FREEZE_VERSION); \
	fi
	SVCUI_BIN=$(CURDIR)/$(BIN) FREEZE=$(FREEZE) bash scripts/screenshots.sh

faults: ## the fault run: 200 services and 200 users against a faulty sandbox (drops after execution), 0 duplicates, 0 false failures; broken lists leave the CPU idle
	SVCUI_FAULTRUN=1 $(GO) test $(RACE) -count=1 -run TestFaultRun -v ./internal/faultrun/

sample-logs: ## regenerate assets/sample-logs.ndjson (the bulk-load demo) from its seed
	$(GO) generate ./internal/sandbox/opensearch/

bench: ## run every benchmark once, with allocations
	$(GO) test -run '^$$' -bench . -benchmem ./...

# -fuzz takes one target per package at a time, so each Fuzz function gets its own run.
fuzz: ## fuzz every Fuzz target for FUZZTIME each (10s); report all failures at the end (scripts/fuzz.sh)
	GO=$(GO) FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION    := v0.52.0
STATICCHECK = $(or $(shell command -v staticcheck 2>/dev/null),$(GOBIN)/staticcheck)
DEADCODE    = $(or $(shell command -v deadcode 2>/dev/null),$(GOBIN)/deadcode)

lint: ## gofmt, go vet, staticcheck and deadcode -test (installs staticcheck v0.8.2 and deadcode v0.52.0 when missing)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './dist/*')); \
		if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if [ ! -x "$(STATICCHECK)" ]; then echo "installing staticcheck $(STATICCHECK_VERSION) into $(GOBIN)"; \
		$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); fi
	@if [ ! -x "$(DEADCODE)" ]; then echo "installing deadcode $(DEADCODE_VERSION) into $(GOBIN)"; \
		$(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION); fi
	$(STATICCHECK) ./...
	@out=$$($(DEADCODE) -test ./...); \
		if [ -n "$$out" ]; then echo "deadcode -test: unreachable functions"; echo "$$out"; exit 1; fi; echo "deadcode -test: clean"

snapshot: ## build release archives and packages locally into dist/ (goreleaser)
	@if ! command -v goreleaser >/dev/null 2>&1 && [ ! -x "$(GOBIN)/goreleaser" ]; then \
		echo "goreleaser is not installed; run: make goreleaser-install" >&2; \
		echo "(or: $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION))" >&2; exit 1; fi
	$(GORELEASER) release --snapshot --clean

goreleaser-install: ## install goreleaser v2.14.3 with go install when missing (about 3 minutes)
	@if command -v goreleaser >/dev/null 2>&1 || [ -x "$(GOBIN)/goreleaser" ]; then \
		echo "goreleaser: $(GORELEASER)"; \
	else \
		echo "installing goreleaser $(GORELEASER_VERSION) into $(GOBIN)"; \
		$(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION); \
	fi

goreleaser-check: goreleaser-install ## validate .goreleaser.yaml
	$(GORELEASER) check

clean: ## remove build output, release output and coverage files
	rm -rf bin dist coverage.out coverage.html *.coverprofile

# Vigor's make targets. `make test` and `make demo` install the editors they
# need first (scripts/setup-editors.sh), so they work on a fresh machine.
SHELL := /bin/bash
GO ?= go
# A count, not a duration: a duration races the Go fuzzing coordinator,
# which then fails with "context deadline exceeded" and no failing input
# (golang/go#75804).
FUZZTIME ?= 150000x
EDITORS = $$(scripts/setup-editors.sh --env)

.PHONY: test check vet unit onecpu examples fuzz demo editors bench bench-smoke vigor-bench

## test: install Vim and Neovim if missing, then run every check and test.
test:
	@env $(EDITORS) $(MAKE) --no-print-directory check

check: vet unit onecpu examples fuzz

## vet: gofmt and go vet (also for macOS, which has no direct reads).
vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./internal/... .

## unit: every test (unit and end-to-end), with the race detector. The
## timeout is sized for a cold CI machine: a test binary that times out
## panics without running its tests' cleanups (mounts, tmux servers).
unit:
	$(GO) test -race -count=1 -timeout=20m ./...

## onecpu: the end-to-end tests of the call path again, with the editors
## and their plugins on one CPU (taskset), where a plugin waits for a reply
## holding its processor (internal/rpc, direct.go).
ONECPU_TESTS = TestBatch|TestBatchRecorderConcurrent|TestBatchThroughWrappingCaller|TestCallbacks|TestConcurrentReentrancy|TestDeepReentrancy|TestReentrancy|TestCallStopsWhenCtxEnds|TestTimerInterruptsRequest|TestInterrupt|TestMessagesBeforeReply|TestRequestAsync|TestDispatchWaitsForTarget|TestLargePayloads|TestLongHandlerAnswers|TestGarbageWhileReentering|TestEditorExitsMidCall|TestLazyJSONInvalid
onecpu:
	@mkdir -p .cache
	$(GO) test -race -c -o .cache/e2e-onecpu.test ./e2e/
	cd e2e && taskset -c 0 ../.cache/e2e-onecpu.test -test.count=1 -test.timeout=10m -test.run '^($(ONECPU_TESTS))$$'

## examples: the example plugins' own tests (go vet, then go test with the
## race detector), each a module of its own, built against this checkout's
## SDK by the go.work that `vigor dev` would write (kept in .cache, so that
## the examples stay as a third-party repository is).
EXAMPLES = examples/finder
examples:
	@mkdir -p .cache
	@set -e; for d in $(EXAMPLES); do \
	  w=$(CURDIR)/.cache/$$(basename $$d).go.work; \
	  v=$$(sed -n 's|^require github.com/vigorvim/vigor \(v[^ ]*\)$$|\1|p' $$d/go.mod); \
	  printf 'go 1.22\n\nuse (\n\t%s\n\t%s\n)\n\nreplace github.com/vigorvim/vigor %s => %s\n' \
	    "$(CURDIR)" "$(CURDIR)/$$d" "$$v" "$(CURDIR)" > $$w; \
	  echo "$$d: go vet, go test"; \
	  (cd $$d && GOWORK=$$w $(GO) vet ./... && GOWORK=$$w $(GO) test -race -count=1 -timeout=20m ./...); \
	done

## fuzz: a short fuzz run of both decoders and both framings, with their
## seed corpora.
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzReadMessage$$' -fuzztime=$(FUZZTIME) ./internal/codec/vimjson
	$(GO) test -run='^$$' -fuzz='^FuzzReadMessage$$' -fuzztime=$(FUZZTIME) ./internal/codec/msgpackrpc
	$(GO) test -run='^$$' -fuzz='^FuzzUnmarshal$$' -fuzztime=$(FUZZTIME) ./internal/codec/vimjson
	$(GO) test -run='^$$' -fuzz='^FuzzUnmarshal$$' -fuzztime=$(FUZZTIME) ./internal/codec/msgpackrpc
	$(GO) test -run='^$$' -fuzz='^FuzzReadFrame$$' -fuzztime=$(FUZZTIME) ./internal/codec/msgpackrpc
	$(GO) test -run='^$$' -fuzz='^FuzzReadFrame$$' -fuzztime=$(FUZZTIME) ./internal/codec/vimjson

## bench: the main job: vigor-bench in Vim and Neovim, against the limit
## clients (minimal C clients, built with $$CC or cc), with denops-benchmark's
## settings (size 64, count 1000, n 100): on all CPUs, then on one
## (--cpus 1).
bench: vigor-bench
	@env $(EDITORS) ./.cache/vigor-bench --editor all $(BENCHFLAGS)
	@echo
	@env $(EDITORS) ./.cache/vigor-bench --editor all --cpus 1 $(BENCHFLAGS)

## bench-startup: startup as a user sees it (vigor-bench -startup): ms to
## STARTED in a terminal with a normal vimrc, the editor alone against Vigor
## with 0, 1, 10 eager and 10 lazy plugins, and the first answer.
.PHONY: bench-startup
bench-startup: vigor-bench
	@env $(EDITORS) ./.cache/vigor-bench --startup --editor all $(BENCHFLAGS)

## bench-smoke: a short run whose JSON must be well formed, with every
## figure positive (CI runs it; it is not a speed gate).
bench-smoke: vigor-bench
	@env $(EDITORS) ./.cache/vigor-bench --editor all --n 5 --json > .cache/bench-smoke.json
	@python3 scripts/check-bench-json.py .cache/bench-smoke.json

## vigor-bench: the benchmark command (cmd/vigor-bench), in .cache.
vigor-bench:
	@mkdir -p .cache
	$(GO) build -o .cache/vigor-bench ./cmd/vigor-bench

## demo: the example plugin answers in Vim and Neovim.
demo:
	@env $(EDITORS) scripts/demo.sh

## doc/tags: the help tags that the project ships (TestHelptags checks them).
.PHONY: doc/tags
doc/tags:
	@env $(EDITORS) bash -c 'd=$$(mktemp -d) && cp doc/vigor.txt "$$d"/ && "$${VIGOR_TEST_VIM:-vim}" -u NONE -i NONE -N -es -c "helptags $$d" -c "qa!" && cp "$$d"/tags doc/tags && rm -r "$$d"'

## editors: install Vim and Neovim and print their paths.
editors:
	@scripts/setup-editors.sh

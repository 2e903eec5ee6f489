# signet — build, test and benchmark entry points. See README.md.

GO            ?= go
STATICCHECK_VERSION := v0.8.2
BIN           := $(CURDIR)/bin
STATICCHECK   := $(BIN)/staticcheck
FUZZTIME      ?= 3s
LONG_FUZZTIME ?= 5m

.PHONY: load load-full wrk-deps cli-test server-deps server-interop-deps server-test xlang xlang-build test check fmt-check vet staticcheck unit fuzz-short fuzz interop-deps bench ratio report report-full bench-compare lab-test clean

## test: the whole suite, interop included (what CI runs).
test: check interop-deps unit server-deps server-interop-deps cli-test server-test xlang-build lab-test fuzz-short

## lab-test: the lab module's own checks (bench/: adapters, attack runner, the HTTP
## lab's harness with a short real wrk run (wrk-deps), the short version of the
## faults under load (TestFaultsShort, about 30 s: wrk-deps, server-deps),
## and the cross-language interop of bench/xlang, built by xlang-build); then
## the studies' peers (bench/studies, built with studies.mod and -tags studies)
## when their module proxy ../shared/goproxy is there (scripts/studies-test.sh).
lab-test: wrk-deps server-deps
	@echo "== the lab (bench/): go vet, go test (with the cross-language interop)"
	cd bench && $(GO) vet ./... && SIGNET_INTEROP=1 $(GO) test -count=1 -timeout 30m ./...
	GO=$(GO) bash scripts/studies-test.sh

## server-deps: Debian's redis-server for the Redis store's tests (scripts/install-redis.sh).
server-deps:
	@echo "== redis-server for the token service's tests"
	bash scripts/install-redis.sh

## server-interop-deps: the OAuth clients that the token service's interop
## test (server/interop) runs: npm openid-client and jose (package-lock.json
## with integrity hashes, npm ci) and Python Authlib and PyJWT (pinned with
## hashes).
server-interop-deps:
	@echo "== the token service's interop peers"
	bash server/interop/setup.sh

## server-test: the token service's module (server/): go vet, go test -race
## (the Redis tests start their own redis-server), staticcheck.
server-test: server-deps server-interop-deps $(STATICCHECK)
	@echo "== the token service (server/): go vet, go test -race, staticcheck"
	cd server && $(GO) vet ./... && SIGNET_INTEROP=1 $(GO) test -race -count=1 ./...
	cd server && $(STATICCHECK) ./...

## cli-test: the command line's module (cmd/signet/: it runs the token
## service, so it imports server/): go vet, go test -race (its serve tests
## start their own redis-server), staticcheck.
cli-test: server-deps $(STATICCHECK)
	@echo "== the command line (cmd/signet/): go vet, go test -race, staticcheck"
	cd cmd/signet && $(GO) vet ./... && SIGNET_INTEROP=1 $(GO) test -race -count=1 ./...
	cd cmd/signet && $(STATICCHECK) ./...

## report: the lab's quick run (a few minutes, progress on stderr):
## out/report/REPORT.md, charts (SVG, PNG) and results.json. scripts/lab.sh
## includes the studies' peers (forcebit, mateothegreat) when ../shared/goproxy
## is there, and says which it skipped and why otherwise.
report:
	GO=$(GO) bash scripts/lab.sh --quick --out ../out/report --attacks ../attacks --vectors ../testdata

## wrk-deps: Debian's wrk, the HTTP lab's load generator (scripts/install-wrk.sh).
wrk-deps:
	@echo "== wrk for the HTTP lab"
	bash scripts/install-wrk.sh

## load: the HTTP lab's quick run (a few minutes, progress and ETA on
## stderr): out/report/HTTP.md, charts, the suites http and http-faults of
## results.json. Servers on CPU 0 (GOMAXPROCS=1), wrk on CPU 1.
load: wrk-deps
	cd bench && $(GO) run ./cmd/load --quick --out ../out/report --root ..

## load-full: the HTTP lab's full run (5 rounds of 3 s per scenario, about 50 minutes).
load-full: wrk-deps
	cd bench && $(GO) run ./cmd/load --full --out ../out/report --root ..

## xlang: the cross-language scenario (Go, Rust, Java, Node, Python), N iterations
## per run (default 1000000), 3 interleaved rounds: out/xlang/results.json,
## XLANG.md and a chart; `make report` afterwards includes them.
N ?= 1000000
xlang:
	cd bench && $(GO) run ./cmd/xlang --n $(N) --out ../out/xlang

## xlang-build: build every language's scenario and interop programs
## (registries only; a missing toolchain is reported and skipped).
xlang-build:
	@echo "== cross-language programs (bench/xlang)"
	bash bench/xlang/build-all.sh

## report-full: every algorithm, five rounds (about 20 minutes on 2 cores).
report-full:
	GO=$(GO) bash scripts/lab.sh --full --out ../out/report --attacks ../attacks --vectors ../testdata

## bench-compare: benchstat tables of signet against each peer (COUNT, BENCH, LAB_QUICK).
bench-compare:
	bash scripts/bench-compare.sh

## check: formatting, go vet and staticcheck.
check: fmt-check vet staticcheck

fmt-check:
	@echo "== gofmt"
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './bin/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	@echo "== go vet"
	$(GO) vet ./...

$(STATICCHECK):
	@echo "== installing staticcheck $(STATICCHECK_VERSION) into bin/"
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	@echo "== staticcheck"
	$(STATICCHECK) ./...

## interop-deps: install the interop peers (npm jose, PyPI pyseto) from the registries.
interop-deps:
	@echo "== interop peers"
	bash interop/setup.sh

unit:
	@echo "== go test -race"
	SIGNET_INTEROP=1 $(GO) test -race -count=1 ./...
	@echo "== allocation counts (without the race detector, which adds its own)"
	$(GO) test -count=1 -run Allocations ./jwt ./paseto ./httpsig
	@echo "== the claims plan with the stack moved at every possible point (its unsafe pointers must follow it)"
	$(GO) test -count=1 -gcflags='all=-d=maymorestack=runtime.mayMoreStackMove' -run 'Plan|Review|Custom|Embedded|Nested|Split' ./internal/claimsjson ./jwt ./paseto
	@echo "== PASERK password vectors at their real Argon2id/PBKDF2 costs"
	$(GO) test -count=1 -run Vectors ./paserk -long

## fuzz-short: every fuzz target for $(FUZZTIME) (seed corpora run in unit too).
fuzz-short:
	@echo "== fuzz ($(FUZZTIME) per target)"
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

## fuzz: every fuzz target for $(LONG_FUZZTIME).
fuzz:
	FUZZTIME=$(LONG_FUZZTIME) bash scripts/fuzz.sh

## bench: every benchmark of the library with allocations, beside its floor.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

## ratio: signet/floor ratios, interleaved in one run, pinned to one core (jwt, paseto, httpsig).
ratio:
	@for pkg in jwt paseto httpsig jwe; do \
		$(GO) test -c -o $(BIN)/$$pkg.test ./$$pkg || exit 1; \
		echo "== $$pkg"; \
		$$(command -v taskset >/dev/null && echo taskset -c 1) $(BIN)/$$pkg.test -test.run '^$$' -test.bench 'Ratio' -test.benchtime 2s -test.count 3 -test.cpu 1 || exit 1; \
	done

clean:
	rm -rf $(BIN) out interop/node/node_modules interop/python/.venv server/interop/node/node_modules server/interop/python/.venv

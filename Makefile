# realdrift — build, test, lint, bench, demo.
# Everything a fresh machine needs is installed by these targets or by .ci/run.

GO            ?= go
BIN           := bin
STATICCHECK   := $(BIN)/staticcheck
STATICCHECK_V := v0.8.2

.PHONY: all build test lint bench demo fuzz generate clean release-snapshot

all: build

build:
	$(GO) build -o $(BIN)/realdrift ./cmd/realdrift

# The test command: README's second command and what .ci/run calls. It
# installs missing Debian packages first (scripts/test-deps.sh); the Go tests
# start DynamoDB Local and install scripts/sfn's node packages when they are
# missing (under CI=true, .ci/run starts DynamoDB Local first).
# scripts/go-test.sh runs the concurrent packages under -race, the rest
# plainly and the whole suite with the clock a year ahead, the three side
# by side.
test:
	scripts/test-deps.sh
	GO=$(GO) scripts/go-test.sh
	$(MAKE) infra-test
	scripts/sandbox-awscli-check.sh

$(STATICCHECK):
	GOBIN=$(abspath $(BIN)) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_V)

lint: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@test -z "$$(gofmt -l . | grep -v '^infra/' )" || (echo "gofmt needed:"; gofmt -l .; exit 1)

# The release snapshot without GoReleaser or Docker (scripts/release):
# six archives, checksums.txt, an SBOM and the container image in dist/,
# each binary's architecture checked and the host's run, also from the image.
release-snapshot:
	GO=$(GO) scripts/release-snapshot.sh dist

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The main job: README's first command.
demo:
	$(GO) run ./cmd/realdrift demo

generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN) dist

# --- Service: Lambda binaries, CDK synth (infra/ is its own module), local end-to-end ---
LAMBDA_DIR     := $(BIN)/lambda
FUNCTIONS      := $(patsubst functions/%/main.go,%,$(wildcard functions/*/main.go))
CDK_ENV        := JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20
SWEEP_SCHEDULE ?= rate(6 hours)
# A function missing from bin/lambda is an error; ALLOW_MISSING_LAMBDAS=true
# synthesizes it with a labelled PLACEHOLDER asset instead (synth warns).
ALLOW_MISSING_LAMBDAS ?= false

.PHONY: lambdas synth infra-test e2e

# Builds bin/lambda/<name>/bootstrap for every functions/<name>/main.go.
lambdas:
	@for f in $(FUNCTIONS); do \
	  echo "lambda $$f"; \
	  GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=false -tags lambda.norpc \
	    -o $(LAMBDA_DIR)/$$f/bootstrap ./functions/$$f || exit 1; \
	done

# Writes infra/cdk.out offline (needs only node).
synth: lambdas
	cd infra && $(CDK_ENV) CDK_OUTDIR=cdk.out REALDRIFT_LAMBDA_DIR=$(abspath $(LAMBDA_DIR)) \
	  REALDRIFT_ALLOW_MISSING_LAMBDAS=$(ALLOW_MISSING_LAMBDAS) REALDRIFT_SWEEP_SCHEDULE='$(SWEEP_SCHEDULE)' $(GO) run .

infra-test:
	cd infra && $(CDK_ENV) $(GO) test -count=1 ./...

# Both state machines under the local Step Functions interpreter, Lambda Tasks
# served by internal/lambdarouter (scripts/sfn installs its node packages on first use):
# against test handlers (statemachine/) and against the real handlers, the sandbox
# and DynamoDB Local (internal/service).
e2e:
	$(GO) test -count=1 -run 'Local|Bounded|Validat|EndToEnd' ./statemachine/... ./internal/service/...

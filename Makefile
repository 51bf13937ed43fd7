# realdrift — build, test, lint, bench, demo.
# Everything a fresh machine needs is installed by these targets or by .ci/run.

GO            ?= go
BIN           := bin
STATICCHECK   := $(BIN)/staticcheck
STATICCHECK_V := v0.8.2

.PHONY: all build test lint bench demo fuzz generate clean

all: build

build:
	$(GO) build -o $(BIN)/realdrift ./cmd/realdrift

# The test command: README's second command and what .ci/run calls.
test:
	$(GO) test -count=1 ./...

$(STATICCHECK):
	GOBIN=$(abspath $(BIN)) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_V)

lint: $(STATICCHECK)
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@test -z "$$(gofmt -l . | grep -v '^infra/' )" || (echo "gofmt needed:"; gofmt -l .; exit 1)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The main job: README's first command.
demo:
	$(GO) run ./cmd/realdrift demo

generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN)

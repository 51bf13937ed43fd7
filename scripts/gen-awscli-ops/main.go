// Command gen-awscli-ops writes scripts/sandbox-awscli-ops.txt, the list
// of every operation the sandbox serves with the AWS CLI command that
// calls it (conformance.AWSCLIList), from the sandbox's own table of
// served operations. Run it through go generate
// ./internal/sandbox/conformance; a test there fails when the committed
// list is not current.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
)

func main() {
	out := flag.String("out", "scripts/sandbox-awscli-ops.txt", "list file to write")
	flag.Parse()
	if err := write(*out, conformance.AWSCLIList(sandbox.ServedOperations())); err != nil {
		fmt.Fprintln(os.Stderr, "gen-awscli-ops:", err)
		os.Exit(1)
	}
}

// write replaces path atomically.
func write(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gen-awscli-ops-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

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

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
	"github.com/realdrift/realdrift/scripts/internal/genfile"
)

func main() {
	out := flag.String("out", "scripts/sandbox-awscli-ops.txt", "list file to write")
	flag.Parse()
	if err := genfile.Write(*out, conformance.AWSCLIList(sandbox.ServedOperations())); err != nil {
		fmt.Fprintln(os.Stderr, "gen-awscli-ops:", err)
		os.Exit(1)
	}
}

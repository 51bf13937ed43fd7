// Command gen-required writes two tables derived from AWS's service models
// (botocore's, the AWS CLI's own) for the operations the sandbox serves:
//   - internal/sandbox/conformance's table of the output members each
//     served operation's model requires (conformance.BuildRequired: the
//     `required` lists aws-sdk-go-v2's Go types do not carry), which the
//     conformance test checks every answer against;
//   - internal/sandbox/awsmodel/inputs.json.gz, the input constraints of
//     every served write operation (conformance.InputTable), which the
//     sandbox embeds and checks every request against; the query form of
//     a JSON service that accepts query too (SQS) is read from the AWS
//     CLI v2's own models, which still speak query.
//
// Only derived facts (shape and member names, locations, required lists,
// types, enumerations, ranges, patterns) are written; botocore's files are
// never copied. Run it through go generate ./internal/sandbox/conformance;
// tests there fail when a committed table is not current with the
// installed botocore.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/conformance"
	"github.com/realdrift/realdrift/scripts/internal/genfile"
)

func main() {
	out := flag.String("out", "internal/sandbox/conformance/testdata/required-output.json", "required-member table to write")
	inputs := flag.String("inputs", "internal/sandbox/awsmodel/inputs.json.gz", "input-constraint table to write")
	data := flag.String("botocore", "", "botocore's data directory (default: the installed botocore's, found through python3)")
	flag.Parse()
	if err := run(*out, *inputs, *data); err != nil {
		fmt.Fprintln(os.Stderr, "gen-required:", err)
		os.Exit(1)
	}
}

func run(out, inputs, data string) error {
	dir, version, err := awsmodel.Botocore()
	if data != "" {
		dir, err = data, nil
	}
	if err != nil {
		return err
	}
	req, err := conformance.BuildRequired(dir, version, sandbox.ServedOperations())
	if err != nil {
		return err
	}
	b, err := conformance.MarshalRequired(req)
	if err != nil {
		return err
	}
	cli, err := awsmodel.AWSCLI(conformance.AWSCLIs()...)
	if err != nil {
		return err
	}
	in, err := conformance.InputTable(dir, version, cli.Data, cli.Version)
	if err != nil {
		return err
	}
	ib, err := in.Marshal()
	if err != nil {
		return err
	}
	if err := genfile.Write(out, b); err != nil {
		return err
	}
	return genfile.Write(inputs, ib)
}

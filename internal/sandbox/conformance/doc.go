// Package conformance checks the sandbox against AWS's own service models,
// not against realdrift's readers. It holds tests only.
//
// Rules the tests enforce:
//   - Every operation the sandbox serves (sandbox.Server.Operations, built
//     from the one registration table, services.go) has an entry in the
//     operation table (ops_test.go): a function that calls it through its
//     aws-sdk-go-v2 typed client, whose deserialisers are generated from
//     AWS's Smithy models. An operation without an entry fails the test.
//   - Each entry is driven against the demo world, the dev-corpus world and
//     a small fixture world (testdata/fixture.json, for resource types the
//     other two lack), once per resource of the entry's types (or once per
//     account region when it names none). A deserialisation error, or any
//     other error that is not an API error the service answered, fails.
//     API errors are allowed (a resource the operation does not know), but
//     every operation must answer successfully at least once.
//   - Every successful answer holds the members AWS's model requires of
//     the operation's output, at any depth ("Stacks[].StackName"). The
//     Go types do not say which are required; botocore's service models
//     do, and testdata/required-output.json is the table of them for the
//     served operations (BuildRequired, written by scripts/gen-required
//     through go generate; TestRequiredTableIsCurrent holds it equal to
//     the installed botocore's, which CI has). A member the Go type holds
//     as a plain number or boolean cannot be told missing from zero and
//     is not checked; an output the table lacks fails.
//   - The fixture world's out-of-band changes (testdata/changes.json) go
//     through the admin API, which must refuse what the service's API
//     would refuse (a Route 53 TTL that is not a number); a change it
//     accepts is served and so checked.
//   - Writes run on a server of their own per world, so reads never see
//     them.
//   - Every Cloud Control model GetResource returns in those worlds is
//     validated (santhosh-tekuri/jsonschema, draft 7) against its type's
//     structural registry schema (testdata/registry-shapes.json.gz, written
//     by scripts/gen-schema -shapes from the pinned registry-schema
//     package: go generate ./internal/schema). The non-conformances, as
//     type, top-level property and failing keyword, must equal
//     testdata/schema-gaps.txt, a list that only shrinks. A model holds
//     what the type's schema says GetResource returns: never a write-only
//     property (nor an object whose every member is write-only, which
//     schema.Shape drops from required), every required one else.
//   - A property AWS returns that the pinned schema does not know yet is
//     accepted only when testdata/newer-than-schema.txt lists it (type,
//     dotted path) with the corpus recording, read from AWS, that holds
//     it; the test checks the recording does. A shape AWS returns that
//     the schema refuses (a required property AWS does not answer, Tags
//     [] under minItems 1, a oneOf whose alternatives differ only by
//     write-only properties) is accepted only when
//     testdata/aws-returns.txt lists its gap line with the recording, and
//     the recorded model, validated against the same shape, fails with
//     that gap. A source is the recording's liveRaw, or "file#path" for
//     models elsewhere in it (opts.clusterEchoModel.*). The world
//     generator's and the fixture's own models never go there: they are
//     fixed instead.
//   - A throttled call answers the throttling error AWS's model names for
//     its operation (an error whose code aws-sdk-go-v2 retries as a
//     throttle, with the model's HTTP status), and an operation whose
//     model names none answers a code the SDK knows as a throttle
//     (TestThrottleErrorsFromModels, against the installed botocore).
//
// One world generation is shared by both checks (TestConformance runs
// them as parallel subtests). The test logs the served-operation count,
// the checked count, the models read and valid, and the wall times. TestAWSCLIListIsCurrent holds scripts/sandbox-awscli-ops.txt
// (every served operation and the AWS CLI command that calls it, which
// scripts/sandbox-awscli-check.sh must run) equal to the served table; go
// generate ./internal/sandbox/conformance rewrites it.
package conformance

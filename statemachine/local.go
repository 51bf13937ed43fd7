package statemachine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Definition names: each is statemachine/<name>.asl.json.
const (
	Sweep      = "sweep"
	CheckStack = "check-stack"
	Revert     = "revert"
	Accept     = "accept"
)

// DefinitionNames lists the definitions.
func DefinitionNames() []string { return []string{Accept, CheckStack, Revert, Sweep} }

// SubstitutionName is the DefinitionSubstitutions key of a function's ARN:
// enumerate-children → EnumerateChildrenFunctionArn.
func SubstitutionName(function string) string {
	var b strings.Builder
	for _, part := range strings.Split(function, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String() + "FunctionArn"
}

// ErrNoNode reports that node or npm is not on PATH.
var ErrNoNode = errors.New("node and npm are needed to run state machines locally")

// Local validates and runs the definitions with the node scripts in
// scripts/sfn (aws-local-stepfunctions and asl-validator).
type Local struct {
	// Root is the repository root (holding statemachine/ and scripts/sfn/).
	Root string
}

// FindLocal locates the repository root from dir or its parents.
func FindLocal(dir string) (Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Local{}, fmt.Errorf("find repository root: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "scripts", "sfn", "run.js")); err == nil {
			return Local{Root: d}, nil
		}
		if filepath.Dir(d) == d {
			return Local{}, fmt.Errorf("find repository root: no scripts/sfn/run.js above %s", abs)
		}
	}
}

func (l Local) scripts() string { return filepath.Join(l.Root, "scripts", "sfn") }

// DefinitionPath is the file of the named definition.
func (l Local) DefinitionPath(name string) string {
	return filepath.Join(l.Root, "statemachine", name+".asl.json")
}

// Prepare checks that node and npm are present and installs the scripts'
// locked dependencies (npm ci) when node_modules is missing.
func (l Local) Prepare(ctx context.Context) error {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrNoNode, tool, err)
		}
	}
	if _, err := os.Stat(filepath.Join(l.scripts(), "node_modules", "aws-local-stepfunctions")); err == nil {
		return nil
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = l.scripts()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %w\n%s", cmd.Dir, err, out)
	}
	return nil
}

// Validation is asl-validator's verdict on one definition.
type Validation struct {
	Valid  bool     `json:"valid"`
	Errors []string `json:"errors"`
}

// Validate runs asl-validator and the Distributed Map shape checks of
// scripts/sfn/shapes.cjs on definition files (paths; "PATH=EXPRESS" checks
// the file as an Express state machine, else Standard) and returns the
// verdict per file path. An invalid definition is not an error; failing to run
// the validator is.
func (l Local) Validate(ctx context.Context, files ...string) (map[string]Validation, error) {
	cmd := exec.CommandContext(ctx, "node", append([]string{"validate.js"}, files...)...)
	cmd.Dir = l.scripts()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("asl-validator: %w: %s", err, stderr.Bytes())
	}
	var report map[string]Validation
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		return nil, fmt.Errorf("asl-validator report: %w: %s", err, stdout.Bytes())
	}
	return report, nil
}

// Run describes one local execution.
type Run struct {
	// Definition is a definition name (Sweep, CheckStack) or a file path.
	Definition string
	// Input is the execution input, encoded as JSON.
	Input any
	// LambdaEndpoint is the Invoke API every Lambda Task calls
	// (AWS_ENDPOINT_URL_LAMBDA).
	LambdaEndpoint string
	// Region and Account build the function ARNs substituted for every
	// ${XFunctionArn}; defaults us-east-1 and 123456789012.
	Region, Account string
	// Substitutions adds or overrides DefinitionSubstitutions values.
	Substitutions map[string]string
	// ExecutionName is $$.Execution.Name (the sweep's run id).
	ExecutionName string
	// RetryMillis, when positive, replaces every Retry backoff with a fixed
	// pause so tests that exercise retries stay fast. Zero keeps the
	// definitions' intervals.
	RetryMillis int
	// TaskTokens is the callback service the definition's
	// lambda:invoke.waitForTaskToken Tasks wait on (the interpreter has no
	// callback tasks; statemachinetest.TaskTokens serves SendTaskSuccess
	// and SendTaskFailure and the waits of scripts/sfn/run.js). Required
	// by a definition with such a Task.
	TaskTokens string
	// Type is the state machine's type (TypeStandard, TypeExpress); for a
	// definition name it defaults to the type infra synthesizes
	// (testdata/statemachine/synthesized.json), else Standard.
	Type string
	// TimeScale, when positive, runs the runner's clocks that many times
	// faster than real time: the execution limits (Express's 5 minutes,
	// TimeoutSeconds) and a callback Task's TimeoutSeconds and
	// HeartbeatSeconds. Lambda invocations take real time.
	TimeScale float64
	// S3Endpoint is where a Distributed Map's ItemReader and ResultWriter
	// call S3 (AWS_ENDPOINT_URL_S3), with AccessKeyID and SecretAccessKey
	// (default "local"): the state machine role's credentials.
	S3Endpoint                   string
	AccessKeyID, SecretAccessKey string
	// StatesEndpoint, when set, is the Step Functions API a Distributed
	// Map asks states:StartExecution at before it runs each child, signed
	// with the same credentials (AWS_ENDPOINT_URL_SFN): Step Functions
	// starts children with the state machine's role. A refusal fails the
	// Map Run. Empty: no child start is asked.
	StatesEndpoint string
}

// State machine types.
const (
	TypeStandard = "STANDARD"
	TypeExpress  = "EXPRESS"
)

// StateOutput is the size of one state's output.
type StateOutput struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Bytes int    `json:"bytes"`
}

// ExecutionError is a failed execution's error and cause.
type ExecutionError struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}

// MapRunCounts are a Map Run's item or child-execution counts, as
// DescribeMapRun reports them.
type MapRunCounts struct {
	Total          int `json:"total"`
	Succeeded      int `json:"succeeded"`
	Failed         int `json:"failed"`
	TimedOut       int `json:"timedOut"`
	Aborted        int `json:"aborted"`
	Pending        int `json:"pending"`
	ResultsWritten int `json:"resultsWritten"`
}

// ResultWriterDetails names a Map Run's manifest.json.
type ResultWriterDetails struct {
	Bucket string `json:"Bucket"`
	Key    string `json:"Key"`
}

// MapRun is the summary of one Distributed Map state's run.
type MapRun struct {
	State                      string               `json:"state"`
	MapRunArn                  string               `json:"mapRunArn"`
	ExecutionType              string               `json:"executionType"`
	Status                     string               `json:"status"`
	MaxConcurrency             int                  `json:"maxConcurrency"`
	ToleratedFailurePercentage float64              `json:"toleratedFailurePercentage"`
	ToleratedFailureCount      int                  `json:"toleratedFailureCount"`
	ItemCounts                 MapRunCounts         `json:"itemCounts"`
	ExecutionCounts            MapRunCounts         `json:"executionCounts"`
	ResultWriter               *ResultWriterDetails `json:"resultWriter"`
}

// ExecutionRecord is one execution of a run: the root's and every child's.
type ExecutionRecord struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Seconds is how long the execution ran (real time: Run.TimeScale
	// does not stretch it), what Express bills.
	Seconds float64 `json:"seconds"`
}

// Execution is the outcome of a local run.
type Execution struct {
	Status              string          `json:"status"`
	Output              json.RawMessage `json:"output"`
	Error               *ExecutionError `json:"error,omitempty"`
	States              []StateOutput   `json:"states"`
	MaxStateOutputBytes int             `json:"maxStateOutputBytes"`
	Retries             int             `json:"retries"`
	Caught              []string        `json:"caught"`
	MapRuns             []MapRun        `json:"mapRuns"`
	// Executions lists the root execution and every child execution.
	Executions []ExecutionRecord `json:"executions"`
	// DefinitionSHA256 is the SHA-256 of the definition file the runner
	// executed, byte for byte as read; Type the type it ran it as.
	DefinitionSHA256 string `json:"definitionSha256"`
	Type             string `json:"type"`
}

// Run executes a definition under aws-local-stepfunctions. A failed
// execution is reported in Execution.Status, not as an error.
func (l Local) Run(ctx context.Context, r Run) (Execution, error) {
	def := r.Definition
	typ, name := r.Type, ""
	if !strings.ContainsAny(def, `/\`) && !strings.HasSuffix(def, ".json") {
		def = l.DefinitionPath(def)
		synth, err := l.Synthesized()
		if err != nil {
			return Execution{}, fmt.Errorf("run %s locally: %w", r.Definition, err)
		}
		if s, ok := synth[r.Definition]; ok {
			name = s.Name
			if typ == "" {
				typ = s.Type
			}
		}
	}
	if typ == "" {
		typ = TypeStandard
	}
	input, err := json.Marshal(r.Input)
	if err != nil {
		return Execution{}, fmt.Errorf("encode input of %s: %w", r.Definition, err)
	}
	region, account := r.Region, r.Account
	if region == "" {
		region = "us-east-1"
	}
	if account == "" {
		account = "123456789012"
	}
	inputArgs := []string{"--input", string(input)}
	if len(input) > 64*1024 {
		// A command line holds at most about 128 KiB per argument.
		dir, err := os.MkdirTemp("", "realdrift-input-")
		if err != nil {
			return Execution{}, fmt.Errorf("run %s locally: %w", r.Definition, err)
		}
		defer os.RemoveAll(dir)
		file := filepath.Join(dir, "input.json")
		if err := os.WriteFile(file, input, 0o600); err != nil {
			return Execution{}, fmt.Errorf("run %s locally: %w", r.Definition, err)
		}
		inputArgs = []string{"--input-file", file}
	}
	args := []string{"--require", "./polyfill.cjs", "run.js",
		"--definition", def,
		"--lambda-arns", region + ":" + account,
		"--type", typ,
	}
	args = append(args, inputArgs...)
	if name != "" {
		args = append(args, "--name", name)
	}
	if r.TimeScale > 0 {
		args = append(args, "--time-scale", strconv.FormatFloat(r.TimeScale, 'f', -1, 64))
	}
	if r.ExecutionName != "" {
		args = append(args, "--execution-name", r.ExecutionName)
	}
	if r.RetryMillis > 0 {
		args = append(args, "--retry-ms", fmt.Sprint(r.RetryMillis))
	}
	if r.TaskTokens != "" {
		args = append(args, "--task-tokens", r.TaskTokens)
	}
	keys := make([]string, 0, len(r.Substitutions))
	for k := range r.Substitutions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "--subst", k+"="+r.Substitutions[k])
	}

	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = l.scripts()
	key, secret := r.AccessKeyID, r.SecretAccessKey
	if key == "" {
		key, secret = "local", "local"
	}
	cmd.Env = append(os.Environ(),
		"AWS_REGION="+region,
		"AWS_ACCESS_KEY_ID="+key,
		"AWS_SECRET_ACCESS_KEY="+secret,
		"AWS_ENDPOINT_URL_LAMBDA="+r.LambdaEndpoint,
		"AWS_MAX_ATTEMPTS=1",
	)
	if r.S3Endpoint != "" {
		cmd.Env = append(cmd.Env, "AWS_ENDPOINT_URL_S3="+r.S3Endpoint)
	}
	// Set either way: an inherited AWS_ENDPOINT_URL_SFN is not this run's.
	cmd.Env = append(cmd.Env, "AWS_ENDPOINT_URL_SFN="+r.StatesEndpoint)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return Execution{}, fmt.Errorf("run %s locally: %w: %s", r.Definition, err, stderr.Bytes())
	}
	var ex Execution
	if err := json.Unmarshal(stdout.Bytes(), &ex); err != nil {
		return Execution{}, fmt.Errorf("run %s locally: report: %w: %s", r.Definition, err, stdout.Bytes())
	}
	return ex, nil
}

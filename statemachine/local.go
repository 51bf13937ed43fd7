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

// Validate runs asl-validator on definition files (paths) and returns its
// verdict per file. An invalid definition is not an error; failing to run
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
}

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

// Execution is the outcome of a local run.
type Execution struct {
	Status              string          `json:"status"`
	Output              json.RawMessage `json:"output"`
	Error               *ExecutionError `json:"error,omitempty"`
	States              []StateOutput   `json:"states"`
	MaxStateOutputBytes int             `json:"maxStateOutputBytes"`
	Retries             int             `json:"retries"`
	Caught              []string        `json:"caught"`
}

// Run executes a definition under aws-local-stepfunctions. A failed
// execution is reported in Execution.Status, not as an error.
func (l Local) Run(ctx context.Context, r Run) (Execution, error) {
	def := r.Definition
	if !strings.ContainsAny(def, `/\`) && !strings.HasSuffix(def, ".json") {
		def = l.DefinitionPath(def)
	}
	def, cleanup, err := localFile(def)
	if err != nil {
		return Execution{}, fmt.Errorf("run %s locally: %w", r.Definition, err)
	}
	defer cleanup()
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
	args := []string{"--require", "./polyfill.cjs", "run.js",
		"--definition", def,
		"--input", string(input),
		"--lambda-arns", region + ":" + account,
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
	cmd.Env = append(os.Environ(),
		"AWS_REGION="+region,
		"AWS_ACCESS_KEY_ID=local",
		"AWS_SECRET_ACCESS_KEY=local",
		"AWS_ENDPOINT_URL_LAMBDA="+r.LambdaEndpoint,
		"AWS_MAX_ATTEMPTS=1",
	)
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

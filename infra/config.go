package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Config is what the app needs to synthesize.
type Config struct {
	// LambdaDir holds <name>/bootstrap for every function.
	LambdaDir string
	// AllowMissingLambdas substitutes a placeholder asset for a function
	// that has not been built instead of failing.
	AllowMissingLambdas bool
	// StateMachineDir holds the *.asl.json definitions.
	StateMachineDir string
	// SweepSchedule is the EventBridge Scheduler expression starting sweeps,
	// rate(...) or cron(...).
	SweepSchedule string
	// PlaceholderDir is the asset used for a missing function.
	PlaceholderDir string
	// RevertTypes are the resource types whose Cloud Control writes the
	// member revert role is granted (nil: defaultRevertTypes). The revert
	// functions are told the list, and a revert plan marks a Cloud Control
	// write of any other type not revertable ("ungranted").
	RevertTypes []string
}

// Environment variables main reads.
const (
	envLambdaDir     = "REALDRIFT_LAMBDA_DIR"
	envAllowMissing  = "REALDRIFT_ALLOW_MISSING_LAMBDAS"
	envSweepSchedule = "REALDRIFT_SWEEP_SCHEDULE"
	envStateMachines = "REALDRIFT_STATEMACHINE_DIR"
	// envRevertTypes is a comma-separated type list; the word "default"
	// in it stands for defaultRevertTypes, so "default,AWS::X::Y" adds one.
	envRevertTypes = "REALDRIFT_REVERT_TYPES"
)

// maxRevertTypesEnv bounds the revert types' list in the revert-plan
// function's environment (Lambda allows 4 KB for all its variables).
const maxRevertTypesEnv = 3072

// DefaultSweepSchedule runs a sweep every six hours.
const DefaultSweepSchedule = "rate(6 hours)"

var scheduleExpr = regexp.MustCompile(`^(rate\([1-9][0-9]* (minute|minutes|hour|hours|day|days)\)|cron\([^()]+\))$`)

// ConfigFromEnv reads the Config from the environment, with paths relative
// to dir (the infra directory).
func ConfigFromEnv(dir string) (Config, error) {
	c := Config{
		LambdaDir:       filepath.Join(dir, "..", "bin", "lambda"),
		StateMachineDir: filepath.Join(dir, "..", "statemachine"),
		PlaceholderDir:  filepath.Join(dir, "placeholder"),
		SweepSchedule:   DefaultSweepSchedule,
	}
	if v := os.Getenv(envLambdaDir); v != "" {
		c.LambdaDir = v
	}
	if v := os.Getenv(envStateMachines); v != "" {
		c.StateMachineDir = v
	}
	if v := os.Getenv(envSweepSchedule); v != "" {
		c.SweepSchedule = v
	}
	if v := os.Getenv(envRevertTypes); v != "" {
		c.RevertTypes = parseRevertTypes(v)
	}
	switch v := strings.ToLower(os.Getenv(envAllowMissing)); v {
	case "", "0", "false":
	case "1", "true":
		c.AllowMissingLambdas = true
	default:
		return Config{}, fmt.Errorf("%s=%q: want true or false", envAllowMissing, v)
	}
	return c, c.Validate()
}

// Validate checks the Config.
func (c Config) Validate() error {
	if !scheduleExpr.MatchString(c.SweepSchedule) {
		return fmt.Errorf("sweep schedule %q: want rate(N minutes|hours|days) or cron(...)", c.SweepSchedule)
	}
	if c.RevertTypes != nil {
		if err := checkRevertTypes(c.RevertTypes); err != nil {
			return fmt.Errorf("%s: %w", envRevertTypes, err)
		}
		if n := len(revertTypesEnv(c.RevertTypes)); n > maxRevertTypesEnv {
			return fmt.Errorf("%s: %d characters; the revert-plan function's environment (4 KB in all) holds at most %d", envRevertTypes, n, maxRevertTypesEnv)
		}
	}
	if c.LambdaDir == "" || c.StateMachineDir == "" {
		return fmt.Errorf("config: lambda and state machine directories are required")
	}
	return nil
}

// parseRevertTypes reads REALDRIFT_REVERT_TYPES: sorted, distinct, with
// "default" expanded.
func parseRevertTypes(v string) []string {
	out := []string{}
	for _, t := range strings.Split(v, ",") {
		switch t = strings.TrimSpace(t); t {
		case "":
		case "default":
			out = append(out, defaultRevertTypes()...)
		default:
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// revertTypesEnv is the revert-plan function's REALDRIFT_REVERT_TYPES:
// AWS types without their "AWS::" (Lambda allows 4 KB of environment; the
// service puts it back).
func revertTypesEnv(types []string) string {
	short := make([]string, len(types))
	for i, t := range types {
		short[i] = strings.TrimPrefix(t, "AWS::")
	}
	return strings.Join(short, ",")
}

// revertTypes returns the configured revert types.
func (c Config) revertTypes() []string {
	if c.RevertTypes == nil {
		return defaultRevertTypes()
	}
	return c.RevertTypes
}

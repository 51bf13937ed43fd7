package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
}

// Environment variables main reads.
const (
	envLambdaDir     = "REALDRIFT_LAMBDA_DIR"
	envAllowMissing  = "REALDRIFT_ALLOW_MISSING_LAMBDAS"
	envSweepSchedule = "REALDRIFT_SWEEP_SCHEDULE"
	envStateMachines = "REALDRIFT_STATEMACHINE_DIR"
)

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
	if c.LambdaDir == "" || c.StateMachineDir == "" {
		return fmt.Errorf("config: lambda and state machine directories are required")
	}
	return nil
}

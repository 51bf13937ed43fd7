package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/realdrift/realdrift/internal/inputfile"
)

// Defaults for the common flags come from, in this order (the first that
// has a value wins): the flag on the command line, a REALDRIFT_* variable,
// the config file, the flag's own default. The config file is --config
// FILE (or REALDRIFT_CONFIG), else .realdrift.yaml in the working
// directory, else .realdrift.yaml at the root of the git work tree the
// working directory is in. It is a YAML mapping of the settings' keys to
// scalars; an unknown key, a value that is no scalar or a value the flag
// refuses is an error (exit 2) naming the file.

// setting is one flag that takes a default from the environment and the
// config file.
type setting struct {
	// key is the flag's name, and the config file's key.
	key string
	// env is the environment variable.
	env string
	// def is the flag's own default, as config prints it.
	def string
	// verbs limits the setting to these verbs (nil: every verb with the
	// flag); diff's --fail means something else than check's.
	verbs []string
	// group names settings of which one only may be given (store and
	// state-dir): the one from the first source in the precedence wins,
	// the others are not applied from a later one.
	group string
}

// settings is the one table of the flags with defaults from the
// environment and the config file (TestSettingsMatchFlags keeps def in
// step with the flags).
func settings() []setting {
	return []setting{
		{key: "store", env: "REALDRIFT_STORE", group: "state"},
		{key: "state-dir", env: "REALDRIFT_STATE_DIR", group: "state"},
		{key: "region", env: "REALDRIFT_REGION"},
		{key: "concurrency", env: "REALDRIFT_CONCURRENCY", def: "32"},
		{key: "format", env: "REALDRIFT_FORMAT", def: "text", verbs: []string{"check", "config"}},
		{key: "fail", env: "REALDRIFT_FAIL", def: "false", verbs: []string{"check", "config"}},
	}
}

// configFileName is the config file looked for.
const configFileName = ".realdrift.yaml"

// maxConfigFile bounds the config file's size.
const maxConfigFile = 1 << 20

// configSource says where a setting's value came from.
type configSource struct {
	value string
	// from is "flag", "env NAME", "file PATH" or "default".
	from string
}

// configFile is a read config file.
type configFile struct {
	path   string
	values map[string]string
}

// findConfig locates the config file: explicit (--config or
// REALDRIFT_CONFIG, which must exist), else .realdrift.yaml in the
// working directory or at the git root above it; "" when there is none.
func findConfig(explicit string) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("--config %s: %w", explicit, err)
		}
		return explicit, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", nil
	}
	if _, err := os.Stat(filepath.Join(wd, configFileName)); err == nil {
		return filepath.Join(wd, configFileName), nil
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			p := filepath.Join(dir, configFileName)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("%s: %w", p, err)
			}
			return "", nil
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

// readConfig reads and checks a config file.
func readConfig(path string) (*configFile, error) {
	data, err := inputfile.Read(path, maxConfigFile)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	cf := &configFile{path: path, values: map[string]string{}}
	if len(doc.Content) == 0 {
		return cf, nil // an empty file
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config %s: want a mapping of settings (%s), got a %s", path, settingKeys(), kindName(m.Kind))
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !isSetting(k.Value) {
			return nil, fmt.Errorf("config %s:%d: unknown key %q%s (the keys are %s)", path, k.Line, k.Value, didYouMean(k.Value, settingNames()), settingKeys())
		}
		if v.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("config %s:%d: %s wants a single value, got a %s", path, v.Line, k.Value, kindName(v.Kind))
		}
		if _, dup := cf.values[k.Value]; dup {
			return nil, fmt.Errorf("config %s:%d: %s is given twice", path, k.Line, k.Value)
		}
		cf.values[k.Value] = v.Value
	}
	return cf, nil
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		return "value"
	}
	return "document"
}

func isSetting(key string) bool {
	for _, s := range settings() {
		if s.key == key {
			return true
		}
	}
	return false
}

func settingNames() []string {
	var out []string
	for _, s := range settings() {
		out = append(out, s.key)
	}
	return out
}

func settingKeys() string { return strings.Join(settingNames(), ", ") }

// registerConfig adds --config to a flag set that has any setting's flag.
func registerConfig(fs *flag.FlagSet) {
	if fs.Lookup("config") != nil {
		return
	}
	for _, st := range settings() {
		if fs.Lookup(st.key) != nil {
			fs.String("config", "", "read defaults from this config `FILE` (default: REALDRIFT_CONFIG, else .realdrift.yaml in the working directory or the git root); precedence: flag > REALDRIFT_* environment > file > default")
			return
		}
	}
}

// resolveSettings works out each setting a flag set has: the flag given,
// else its REALDRIFT_* variable, else the config file, else the default.
func resolveSettings(s IO, fs *flag.FlagSet) (map[string]configSource, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	explicit := ""
	if f := fs.Lookup("config"); f != nil {
		explicit = f.Value.String()
	}
	if explicit == "" {
		explicit = getenv(s, "REALDRIFT_CONFIG")
	}
	var cf *configFile
	path, err := findConfig(explicit)
	if err != nil {
		return nil, err
	}
	if path != "" {
		if cf, err = readConfig(path); err != nil {
			return nil, err
		}
	}
	verb, _, _ := strings.Cut(strings.TrimPrefix(fs.Name(), "realdrift "), " ")
	// rank orders the sources: flag 3, environment 2, file 1, default 0.
	rank := func(from string) int {
		switch {
		case from == "flag":
			return 3
		case strings.HasPrefix(from, "env "):
			return 2
		case strings.HasPrefix(from, "file "):
			return 1
		}
		return 0
	}
	out := map[string]configSource{}
	best := map[string]int{} // group → the best rank of its members
	for _, st := range settings() {
		f := fs.Lookup(st.key)
		if f == nil || (st.verbs != nil && !slices.Contains(st.verbs, verb)) {
			continue
		}
		src := configSource{value: f.Value.String(), from: "default"}
		switch v := getenv(s, st.env); {
		case given[st.key]:
			src.from = "flag"
		case v != "":
			src = configSource{value: v, from: "env " + st.env}
		case cf != nil && cf.values[st.key] != "":
			src = configSource{value: cf.values[st.key], from: "file " + cf.path}
		}
		out[st.key] = src
		if st.group != "" {
			best[st.group] = max(best[st.group], rank(src.from))
		}
	}
	for _, st := range settings() {
		src, ok := out[st.key]
		if !ok || src.from == "flag" || src.from == "default" {
			continue
		}
		if st.group != "" && rank(src.from) < best[st.group] {
			// Another of the group comes first (--state-dir given beats
			// a store from the file): this one stays at its default.
			out[st.key] = configSource{value: fs.Lookup(st.key).DefValue, from: "default (" + src.from + " yields to the " + st.group + " setting above it)"}
			continue
		}
		if err := fs.Set(st.key, src.value); err != nil {
			return nil, fmt.Errorf("%s: %s %q: %w", src.from, st.key, src.value, err)
		}
	}
	return out, nil
}

const configSynopsis = `[--config FILE] [--store URL] [--state-dir DIR] [--region R] [--concurrency N] [--format F] [--fail]

Prints the effective value of each setting that takes a default from the
environment and the config file, and where it came from. Precedence: a flag
on the command line, then the REALDRIFT_* variable (REALDRIFT_STORE,
REALDRIFT_STATE_DIR, REALDRIFT_REGION, REALDRIFT_CONCURRENCY,
REALDRIFT_FORMAT, REALDRIFT_FAIL), then the config file, then the default.
The config file is --config FILE (or REALDRIFT_CONFIG), else .realdrift.yaml
in the working directory, else at the git root: a YAML mapping of the keys
store, state-dir, region, concurrency, format and fail, e.g.

  store: dynamodb://realdrift-central?region=eu-west-1
  region: eu-west-1
  concurrency: 16
  fail: true

An unknown key or a malformed file is an error (exit 2). A setting applies
to the verbs that have its flag (format and fail: check).`

func runConfig(_ context.Context, s IO, args []string) int {
	fs := newFlags(s, "config", configSynopsis)
	for _, st := range settings() {
		if st.def == "false" {
			fs.Bool(st.key, false, "as check's --"+st.key)
		} else {
			fs.String(st.key, st.def, "as the checking verbs' --"+st.key)
		}
	}
	done, code, srcs := parseSettings(s, fs, args)
	if done {
		return code
	}
	if len(fs.Args()) > 0 {
		return fail(s, "config", fmt.Errorf("takes no arguments (got %q)", fs.Args()))
	}
	for _, st := range settings() {
		src := srcs[st.key]
		v := src.value
		if v == "" {
			v = `""`
		}
		fmt.Fprintf(s.Stdout, "%-12s %-40s %s\n", st.key, v, src.from)
	}
	return ExitOK
}

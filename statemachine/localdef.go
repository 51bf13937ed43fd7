package statemachine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LocalItemsPath names, for a Map state that reads its items from S3 in
// production (ItemReader), where its items are inline in a local run. The
// local interpreter ignores ItemReader and ResultWriter
// (LOCAL-EMULATORS.md); LocalDefinition puts these paths in their place.
func LocalItemsPath(state string) (string, bool) {
	switch state {
	case "Stacks":
		// discover returns each region's stack list inline when no
		// targets bucket is configured (RegionTargets.Targets).
		return "$.region.targets", true
	}
	return "", false
}

// LocalDefinition returns def (an ASL definition's JSON) in the shape the
// local interpreter runs: every Map with an ItemReader reads the inline
// items LocalItemsPath names instead, and loses its ResultWriter (the Map's
// ResultPath decides what stays in the state, as it does on AWS). A Map
// with an ItemReader that LocalItemsPath does not name is an error. A
// definition without one comes back unchanged.
func LocalDefinition(def []byte) ([]byte, error) {
	if !strings.Contains(string(def), `"ItemReader"`) && !strings.Contains(string(def), `"ResultWriter"`) {
		return def, nil
	}
	var d map[string]any
	if err := json.Unmarshal(def, &d); err != nil {
		return nil, fmt.Errorf("local definition: %w", err)
	}
	if err := localStates(d); err != nil {
		return nil, err
	}
	return json.MarshalIndent(d, "", "  ")
}

func localStates(machine map[string]any) error {
	states, _ := machine["States"].(map[string]any)
	for name, v := range states {
		st, _ := v.(map[string]any)
		if st == nil {
			continue
		}
		if _, ok := st["ItemReader"]; ok {
			path, ok := LocalItemsPath(name)
			if !ok {
				return fmt.Errorf("local definition: Map %s reads items from S3 and LocalItemsPath names no inline path for it", name)
			}
			delete(st, "ItemReader")
			st["ItemsPath"] = path
		}
		delete(st, "ResultWriter")
		for _, k := range []string{"ItemProcessor", "Iterator"} {
			if inner, ok := st[k].(map[string]any); ok {
				if err := localStates(inner); err != nil {
					return err
				}
			}
		}
		if branches, ok := st["Branches"].([]any); ok {
			for _, b := range branches {
				if inner, ok := b.(map[string]any); ok {
					if err := localStates(inner); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// localFile writes the local shape of the definition file path to a
// temporary file when it differs, returning the file to run and a cleanup.
func localFile(path string) (string, func(), error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("read definition: %w", err)
	}
	local, err := LocalDefinition(b)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(local) == string(b) {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "realdrift-asl-")
	if err != nil {
		return "", nil, err
	}
	f := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(f, local, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return f, func() { os.RemoveAll(dir) }, nil
}

package schema

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Source names the registry package a snapshot was generated from.
type Source struct {
	Package string `json:"package"`
	Version string `json:"version"`
	// Integrity is the package tarball's integrity string as the package
	// manager recorded it (an SRI "sha512-..." value).
	Integrity string `json:"integrity"`
}

// storedFile is the storage shape of snapshot.json.gz. It keeps only what
// cannot be derived: the top-level name lists and top-level defaults are
// rebuilt from the path lists on load.
type storedFile struct {
	Source Source                 `json:"source"`
	Types  map[string]storedFacts `json:"types"`
}

type storedFacts struct {
	ReadOnly              []string            `json:"ro,omitempty"`
	WriteOnly             []string            `json:"wo,omitempty"`
	CreateOnly            []string            `json:"co,omitempty"`
	ConditionalCreateOnly []string            `json:"cco,omitempty"`
	Defaults              map[string]any      `json:"def,omitempty"`
	UnorderedScalar       []string            `json:"us,omitempty"`
	UnorderedObject       []string            `json:"uo,omitempty"`
	FreeForm              []string            `json:"ff,omitempty"`
	PrimaryIdentifier     []string            `json:"pid,omitempty"`
	AdditionalIdentifiers [][]string          `json:"aid,omitempty"`
	PropertyTransforms    map[string]string   `json:"pt,omitempty"`
	NotTaggable           bool                `json:"notag,omitempty"`
	TagProperty           string              `json:"tag,omitempty"`
	Handlers              []string            `json:"h,omitempty"`
	HandlerPermissions    map[string][]string `json:"hp,omitempty"`
}

func toStored(f *Facts) storedFacts {
	return storedFacts{
		ReadOnly:              f.ReadOnlyPaths,
		WriteOnly:             f.WriteOnlyPaths,
		CreateOnly:            f.CreateOnlyPaths,
		ConditionalCreateOnly: f.ConditionalCreateOnlyPaths,
		Defaults:              f.DefaultPaths,
		UnorderedScalar:       f.UnorderedScalarPaths,
		UnorderedObject:       f.UnorderedObjectArrayPaths,
		FreeForm:              f.FreeFormMapPaths,
		PrimaryIdentifier:     f.PrimaryIdentifier,
		AdditionalIdentifiers: f.AdditionalIdentifiers,
		PropertyTransforms:    f.PropertyTransforms,
		NotTaggable:           !f.Taggable,
		TagProperty:           f.TagProperty,
		Handlers:              f.Handlers,
		HandlerPermissions:    f.HandlerPermissions,
	}
}

func (s storedFacts) facts() *Facts {
	f := &Facts{
		ReadOnlyPaths:              nonNil(s.ReadOnly),
		WriteOnlyPaths:             nonNil(s.WriteOnly),
		CreateOnlyPaths:            nonNil(s.CreateOnly),
		ConditionalCreateOnlyPaths: s.ConditionalCreateOnly,
		Defaults:                   map[string]any{},
		DefaultPaths:               s.Defaults,
		UnorderedScalarPaths:       s.UnorderedScalar,
		UnorderedObjectArrayPaths:  s.UnorderedObject,
		FreeFormMapPaths:           s.FreeForm,
		PrimaryIdentifier:          s.PrimaryIdentifier,
		AdditionalIdentifiers:      s.AdditionalIdentifiers,
		PropertyTransforms:         s.PropertyTransforms,
		Taggable:                   !s.NotTaggable,
		TagProperty:                s.TagProperty,
		Handlers:                   s.Handlers,
		HandlerPermissions:         s.HandlerPermissions,
	}
	f.ReadOnly = topLevel(f.ReadOnlyPaths)
	f.WriteOnly = topLevel(f.WriteOnlyPaths)
	f.CreateOnly = topLevel(f.CreateOnlyPaths)
	for p, v := range f.DefaultPaths {
		if !strings.Contains(p, ".") {
			f.Defaults[p] = v
		}
	}
	return f
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteSnapshot writes the snapshot of types, gzipped. The output depends
// only on its inputs (map keys are sorted, the gzip header carries no name
// or time), so regenerating from the same package gives the same bytes.
func WriteSnapshot(w io.Writer, src Source, types map[string]Facts) error {
	file := storedFile{Source: src, Types: make(map[string]storedFacts, len(types))}
	for name, f := range types {
		file.Types[name] = toStored(&f)
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("snapshot gzip: %w", err)
	}
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(file); err != nil {
		return fmt.Errorf("encode snapshot: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("snapshot gzip: %w", err)
	}
	return nil
}

// ReadSnapshot parses a snapshot written by WriteSnapshot.
func ReadSnapshot(r io.Reader) (*Snapshot, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("snapshot gzip: %w", err)
	}
	defer zr.Close()
	var file storedFile
	if err := json.NewDecoder(zr).Decode(&file); err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	s := &Snapshot{source: file.Source, types: make(map[string]*Facts, len(file.Types))}
	for name, sf := range file.Types {
		s.types[name] = sf.facts()
	}
	s.names = slices.Sorted(maps.Keys(s.types))
	return s, nil
}

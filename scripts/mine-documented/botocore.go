package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// apis are the service API models botocore ships, by lower-cased service
// id and endpoint prefix. A CloudFormation type AWS::Svc::Res maps to the
// input of the service's CreateRes operation; its properties map to the
// input members by name (case-insensitively), nested structures and lists
// by the same rule.
type apis map[string]*apiModel

type apiModel struct {
	Metadata struct {
		ServiceID      string `json:"serviceId"`
		EndpointPrefix string `json:"endpointPrefix"`
	} `json:"metadata"`
	Operations map[string]struct {
		Input *struct {
			Shape string `json:"shape"`
		} `json:"input"`
	} `json:"operations"`
	Shapes map[string]*apiShapeDef `json:"shapes"`
}

type apiShapeDef struct {
	Type    string `json:"type"`
	Members map[string]struct {
		Shape         string `json:"shape"`
		Documentation string `json:"documentation"`
	} `json:"members"`
	Member *struct {
		Shape string `json:"shape"`
	} `json:"member"`
	Documentation string   `json:"documentation"`
	Enum          []string `json:"enum"`
}

// apiShape is a position in an API model: the shape and the text that
// documents the member that leads to it.
type apiShape struct {
	m   *apiModel
	def *apiShapeDef
	doc string
	// op is the operation, path the member path from its input
	// ("CreateTargetGroup.HealthCheckPath").
	op, path string
	// noun, on an attributeOps input, is the resource name a property
	// prefixes its member's name with.
	noun string
}

func loadBotocore(dir string) (apis, error) {
	out := apis{}
	if dir == "" {
		return out, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "service-2.json*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		m, err := readModel(f)
		if err != nil {
			return nil, err
		}
		// The newest API version of a service wins (sorted last).
		for _, k := range []string{norm(m.Metadata.ServiceID), norm(m.Metadata.EndpointPrefix)} {
			if k != "" {
				out[k] = m
			}
		}
	}
	return out, nil
}

func readModel(path string) (*apiModel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m apiModel
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		err = json.NewDecoder(gz).Decode(&m)
		return &m, err
	}
	err = json.NewDecoder(f).Decode(&m)
	return &m, err
}

func norm(s string) string {
	return strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "-", ""))
}

// writeVerbs are the operations whose input carries a resource's
// settable properties: AWS::Svc::Res maps to CreateRes, PutRes, UpdateRes
// and ModifyRes (each that the service has).
var writeVerbs = []string{"Create", "Put", "Update", "Modify"}

// attributeOps are the operations that set a resource's name/value
// attributes (ModifyTargetGroupAttributes): a property named after the
// resource and the operation's member ("TargetGroupAttributes") maps to
// that member ("Attributes").
var attributeOps = []string{"Modify%sAttributes", "Set%sAttributes", "Put%sAttributes"}

// inputs returns the input shapes of the write operations of typ's
// resource (writeVerbs); a property's documentation is the text of every
// member it maps to.
func (a apis) inputs(typ string) apiShapes {
	parts := strings.Split(typ, "::")
	if len(parts) != 3 || parts[0] != "AWS" {
		return nil
	}
	m := a[norm(parts[1])]
	if m == nil {
		return nil
	}
	var out apiShapes
	for _, verb := range writeVerbs {
		op, ok := m.Operations[verb+parts[2]]
		if !ok || op.Input == nil {
			continue
		}
		out = append(out, apiShape{m: m, def: m.Shapes[op.Input.Shape], op: verb + parts[2]})
	}
	for _, f := range attributeOps {
		name := fmt.Sprintf(f, parts[2])
		if op, ok := m.Operations[name]; ok && op.Input != nil {
			out = append(out, apiShape{m: m, def: m.Shapes[op.Input.Shape], op: name, noun: parts[2]})
		}
	}
	return out
}

// apiShapes are the positions a property maps to in several operations'
// inputs.
type apiShapes []apiShape

func (ss apiShapes) member(name string) apiShapes {
	var out apiShapes
	for _, s := range ss {
		if m := s.member(name); m.def != nil || m.doc != "" {
			out = append(out, m)
		}
	}
	return out
}

func (ss apiShapes) items() apiShapes {
	var out apiShapes
	for _, s := range ss {
		if m := s.items(); m.def != nil {
			out = append(out, m)
		}
	}
	return out
}

// doc is the documentation of every member, one paragraph each.
func (ss apiShapes) doc() string {
	var b strings.Builder
	for _, s := range ss {
		if s.doc != "" {
			b.WriteString(s.doc)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// enum returns the enum values the members' shapes allow, when they all
// name the same one set.
func (ss apiShapes) enum() []string {
	var out []string
	for i, s := range ss {
		if s.def == nil || len(s.def.Enum) == 0 {
			return nil
		}
		if i > 0 && strings.Join(s.def.Enum, "\x00") != strings.Join(out, "\x00") {
			return nil
		}
		out = s.def.Enum
	}
	return out
}

// source names the operations and members a property maps to.
func (ss apiShapes) source() string {
	var parts []string
	for _, s := range ss {
		if s.doc != "" {
			parts = append(parts, s.path)
		}
	}
	return strings.Join(parts, ", ")
}

func (s apiShape) member(name string) apiShape {
	if s.def == nil {
		return apiShape{}
	}
	if s.noun != "" && s.path == "" {
		name = strings.TrimPrefix(name, s.noun)
	}
	for k, mem := range s.def.Members {
		if strings.EqualFold(k, name) {
			p := s.path
			if p == "" {
				p = s.op
			}
			return apiShape{m: s.m, def: s.m.Shapes[mem.Shape], doc: plain(mem.Documentation), op: s.op, path: p + "." + k}
		}
	}
	return apiShape{}
}

func (s apiShape) items() apiShape {
	if s.def == nil || s.def.Type != "list" || s.def.Member == nil {
		return apiShape{}
	}
	return apiShape{m: s.m, def: s.m.Shapes[s.def.Member.Shape], op: s.op, path: s.path + ".member"}
}

var (
	reCode = regexp.MustCompile(`<code>([^<]{1,64})</code>`)
	reTag  = regexp.MustCompile(`<[^>]+>`)
)

// plain renders API documentation HTML as text, code spans quoted “X“
// the way the registry schemas quote values.
func plain(doc string) string {
	doc = reCode.ReplaceAllString(doc, "``$1``")
	return html.UnescapeString(reTag.ReplaceAllString(doc, " "))
}

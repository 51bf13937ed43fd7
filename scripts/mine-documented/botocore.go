package main

import (
	"compress/gzip"
	"encoding/json"
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
	Documentation string `json:"documentation"`
}

// apiShape is a position in an API model: the shape and the text that
// documents the member that leads to it.
type apiShape struct {
	m   *apiModel
	def *apiShapeDef
	doc string
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

func (a apis) input(typ string) apiShape {
	parts := strings.Split(typ, "::")
	if len(parts) != 3 || parts[0] != "AWS" {
		return apiShape{}
	}
	m := a[norm(parts[1])]
	if m == nil {
		return apiShape{}
	}
	op, ok := m.Operations["Create"+parts[2]]
	if !ok || op.Input == nil {
		return apiShape{}
	}
	return apiShape{m: m, def: m.Shapes[op.Input.Shape]}
}

func (s apiShape) member(name string) apiShape {
	if s.def == nil {
		return apiShape{}
	}
	for k, mem := range s.def.Members {
		if strings.EqualFold(k, name) {
			return apiShape{m: s.m, def: s.m.Shapes[mem.Shape], doc: plain(mem.Documentation)}
		}
	}
	return apiShape{}
}

func (s apiShape) items() apiShape {
	if s.def == nil || s.def.Type != "list" || s.def.Member == nil {
		return apiShape{}
	}
	return apiShape{m: s.m, def: s.m.Shapes[s.def.Member.Shape]}
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

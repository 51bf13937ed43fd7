package awsmodel

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Botocore finds the installed botocore's data directory through
// python3, and its version; an error when python3 or botocore is missing.
func Botocore() (dir, version string, err error) {
	out, err := exec.Command("python3", "-c", "import botocore,os;print(os.path.join(os.path.dirname(botocore.__file__),'data'));print(botocore.__version__)").Output()
	if err != nil {
		return "", "", fmt.Errorf("botocore: %w", err)
	}
	dir, version, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	return dir, version, nil
}

// CLI is an AWS CLI v2 found by AWSCLI.
type CLI struct {
	// Path is its executable.
	Path string
	// Data is the botocore data directory it carries (its own copy, the
	// models it was built from: 2.9.19's still speak query for SQS).
	Data string
	// Version is its version ("aws-cli/2.9.19").
	Version string
}

// AWSCLI finds an AWS CLI v2 and its models, trying each of clis (an
// executable name or path) in turn; an error when none is a v2 CLI whose
// models can be found.
func AWSCLI(clis ...string) (CLI, error) {
	var tried []string
	for _, cli := range clis {
		path, err := exec.LookPath(cli)
		if err != nil {
			tried = append(tried, cli+": "+err.Error())
			continue
		}
		out, err := exec.Command(path, "--version").CombinedOutput()
		v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		if err != nil || !strings.HasPrefix(v, "aws-cli/2.") {
			tried = append(tried, path+": not an AWS CLI v2 ("+v+")")
			continue
		}
		interp, err := shebang(path)
		if err != nil {
			tried = append(tried, path+": "+err.Error())
			continue
		}
		out, err = exec.Command(interp, "-c", "import awscli.botocore,os;print(os.path.join(os.path.dirname(awscli.botocore.__file__),'data'))").Output()
		if err != nil {
			tried = append(tried, path+": its botocore data: "+err.Error())
			continue
		}
		return CLI{Path: path, Data: strings.TrimSpace(string(out)), Version: v}, nil
	}
	return CLI{}, fmt.Errorf("no AWS CLI v2 with its models found (%s)", strings.Join(tried, "; "))
}

// shebang is the interpreter a script's #! line names.
func shebang(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	fields := strings.Fields(rest)
	if !ok || len(fields) == 0 {
		return "", fmt.Errorf("not a script with a #! line")
	}
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		return fields[1], nil
	}
	return fields[0], nil
}

// Model is the part of one botocore service model the sandbox uses.
type Model struct {
	// Name is the botocore service name (its directory).
	Name     string `json:"-"`
	Metadata struct {
		ServiceID      string `json:"serviceId"`
		SigningName    string `json:"signingName"`
		EndpointPrefix string `json:"endpointPrefix"`
		Protocol       string `json:"protocol"`
		// AWSQueryCompatible is set on a JSON model of a service that
		// still accepts the query protocol it moved from (SQS): the
		// query form's member names are not in this model but in the
		// last model that spoke query (Table.AddQueryForms).
		AWSQueryCompatible *json.RawMessage `json:"awsQueryCompatible,omitempty"`
	} `json:"metadata"`
	Operations map[string]struct {
		HTTP struct {
			Method     string `json:"method"`
			RequestURI string `json:"requestUri"`
		} `json:"http"`
		Input  *Ref `json:"input"`
		Output *Ref `json:"output"`
		// Errors are the error shapes the operation's model names.
		Errors []Ref `json:"errors,omitempty"`
	} `json:"operations"`
	Shapes map[string]*RawShape `json:"shapes"`
}

// Ref names a shape, with where a member of it is carried.
type Ref struct {
	Shape        string `json:"shape"`
	Location     string `json:"location,omitempty"`
	LocationName string `json:"locationName,omitempty"`
	QueryName    string `json:"queryName,omitempty"`
	Flattened    bool   `json:"flattened,omitempty"`
}

// RawShape is one botocore shape.
type RawShape struct {
	Type      string          `json:"type"`
	Union     bool            `json:"union,omitempty"`
	Required  []string        `json:"required,omitempty"`
	Members   map[string]*Ref `json:"members,omitempty"`
	Member    *Ref            `json:"member,omitempty"`
	Key       *Ref            `json:"key,omitempty"`
	Value     *Ref            `json:"value,omitempty"`
	Enum      []string        `json:"enum,omitempty"`
	Min       *float64        `json:"min,omitempty"`
	Max       *float64        `json:"max,omitempty"`
	Pattern   string          `json:"pattern,omitempty"`
	Flattened bool            `json:"flattened,omitempty"`
	// Payload names the member a REST input's whole body is.
	Payload string `json:"payload,omitempty"`
	// Exception marks an error shape; Error is its code (when not the
	// shape's name) and HTTP status.
	Exception bool       `json:"exception,omitempty"`
	Error     *ErrorInfo `json:"error,omitempty"`
}

// ErrorInfo is an error shape's wire facts.
type ErrorInfo struct {
	Code           string `json:"code,omitempty"`
	HTTPStatusCode int    `json:"httpStatusCode,omitempty"`
}

// ErrorCode is the code an error shape is answered with: its declared
// code, else its name.
func (m *Model) ErrorCode(shape string) string {
	if s := m.Shapes[shape]; s != nil && s.Error != nil && s.Error.Code != "" {
		return s.Error.Code
	}
	return shape
}

// SDKPackage is the aws-sdk-go-v2 package name of the model (its
// serviceId, lower case, spaces and dashes dropped: "CloudWatch Logs" is
// cloudwatchlogs).
func (m *Model) SDKPackage() string {
	return strings.ToLower(strings.NewReplacer(" ", "", "-", "").Replace(m.Metadata.ServiceID))
}

// Serves reports whether the model is one of a service the sandbox names
// by signing name (its signing name or, lacking one, endpoint prefix).
func (m *Model) Serves(signing string) bool {
	return m.Metadata.SigningName == signing || m.Metadata.EndpointPrefix == signing
}

// Models reads the latest API version of every service model in dir
// that keep wants by its signing name or endpoint prefix (reading no
// further than the metadata of the others, which botocore writes before
// the operations).
func Models(dir string, keep func(signingName, endpointPrefix string) bool) ([]*Model, error) {
	dirs, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("botocore data: %w", err)
	}
	var out []*Model
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		path, err := latest(filepath.Join(dir, d.Name()))
		if err != nil {
			return nil, err
		}
		if path == "" {
			continue
		}
		m, err := read(path, keep)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if m != nil {
			m.Name = d.Name()
			out = append(out, m)
		}
	}
	return out, nil
}

// latest is the service-2.json(.gz) of a service's latest API version
// directory, "" when it has none.
func latest(dir string) (string, error) {
	vs, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for i := len(vs) - 1; i >= 0; i-- {
		for _, f := range []string{"service-2.json.gz", "service-2.json"} {
			p := filepath.Join(dir, vs[i].Name(), f)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	return "", nil
}

func read(path string, keep func(signingName, endpointPrefix string) bool) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	}
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	m := &Model{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var dst any
		switch tok {
		case "metadata":
			dst = &m.Metadata
		case "operations":
			dst = &m.Operations
		case "shapes":
			dst = &m.Shapes
		default:
			var skip json.RawMessage
			dst = &skip
		}
		if err := dec.Decode(dst); err != nil {
			return nil, err
		}
		if tok == "metadata" && !keep(m.Metadata.SigningName, m.Metadata.EndpointPrefix) {
			return nil, nil
		}
	}
	return m, nil
}

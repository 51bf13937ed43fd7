package conformance_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// botocoreFile reads one JSON file (gzipped or not) of a botocore
// service's latest API version into v; false when that version has none.
func botocoreFile(t *testing.T, dir, service, name string, v any) bool {
	t.Helper()
	vs, err := os.ReadDir(filepath.Join(dir, service))
	if err != nil {
		t.Fatal(err)
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dir, service, vs[i].Name(), "service-2.json.gz")); err != nil {
			if _, err := os.Stat(filepath.Join(dir, service, vs[i].Name(), "service-2.json")); err != nil {
				continue
			}
		}
		for _, f := range []string{name + ".gz", name} {
			fh, err := os.Open(filepath.Join(dir, service, vs[i].Name(), f))
			if err != nil {
				continue
			}
			defer fh.Close()
			var r io.Reader = fh
			if strings.HasSuffix(f, ".gz") {
				if r, err = gzip.NewReader(fh); err != nil {
					t.Fatal(err)
				}
			}
			if err := json.NewDecoder(r).Decode(v); err != nil {
				t.Fatalf("%s/%s: %v", service, f, err)
			}
			return true
		}
		return false
	}
	return false
}

// botocoreModels reads the botocore models of the services ops are
// served by (by signing name or endpoint prefix). Without botocore the
// test skips, except in CI.
func botocoreModels(t *testing.T, ops func(yield func(sandbox.Operation) bool)) (dir, version string, models []*awsmodel.Model) {
	t.Helper()
	dir, version, err := awsmodel.Botocore()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI has botocore installed: %v", err)
		}
		t.Skipf("no botocore to compare with: %v", err)
	}
	bySigning := map[string]bool{}
	for op := range ops {
		bySigning[op.Service] = true
	}
	models, err = awsmodel.Models(dir, func(signing, prefix string) bool { return bySigning[signing] || bySigning[prefix] })
	if err != nil {
		t.Fatal(err)
	}
	return dir, version, models
}

// servedModels are the botocore models of the served operations, by
// operation (RDS's signing name serves three models: each is returned).
func servedModels(t *testing.T, served map[sandbox.Operation]time.Duration) (dir, version string, by map[sandbox.Operation][]*awsmodel.Model) {
	t.Helper()
	dir, version, models := botocoreModels(t, maps.Keys(served))
	by = map[sandbox.Operation][]*awsmodel.Model{}
	for _, m := range models {
		for op := range served {
			if _, ok := m.Operations[op.Name]; ok && m.Serves(op.Service) {
				by[op] = append(by[op], m)
			}
		}
	}
	return dir, version, by
}

// TestPageMembersFromModels: the members a page token is not bound to
// (wire.IsPageMember) include the page token and the page size of every
// served operation botocore's paginators name (input_token, limit_key),
// so every page of a listing has the listing's digest. An operation
// whose token is several members (Route 53's record sets) resumes at a
// named item, not a token, and is not checked.
func TestPageMembersFromModels(t *testing.T) {
	served := sandbox.ServedTokenLifetimes()
	dir, version, by := servedModels(t, served)
	type paginator struct {
		InputToken any    `json:"input_token"`
		LimitKey   string `json:"limit_key"`
	}
	paginators := map[string]map[string]paginator{}
	var bad []string
	checked := 0
	for op, models := range by {
		for _, m := range models {
			ps, ok := paginators[m.Name]
			if !ok {
				var file struct {
					Pagination map[string]paginator `json:"pagination"`
				}
				botocoreFile(t, dir, m.Name, "paginators-1.json", &file)
				ps = file.Pagination
				paginators[m.Name] = ps
			}
			p, ok := ps[op.Name]
			if !ok {
				continue
			}
			tok, single := p.InputToken.(string)
			if !single {
				continue
			}
			checked++
			for _, member := range []string{tok, p.LimitKey} {
				if member != "" && !wire.IsPageMember(member) {
					bad = append(bad, fmt.Sprintf("%s (%s): %s carries the page token or size, yet the listing digest keeps it (wire.pageMembers)", op, m.Name, member))
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("botocore %s: %d served operations, %d paginated with one token member", version, len(served), checked)
}

// expires finds the lifetime a documentation string gives a token
// ("The token expires after 24 hours.").
var expires = regexp.MustCompile(`(?i)expires? after (\d+|one|an?) (hour|minute|day)s?`)

// TestTokenLifetimesFromModels: a served operation's page tokens expire
// (wire.Service.TokensExpire) exactly when AWS's model documents a
// lifetime for its input's page token — in the member's or its shape's
// documentation — and after that lifetime; where none is documented they
// do not expire.
func TestTokenLifetimesFromModels(t *testing.T) {
	served := sandbox.ServedTokenLifetimes()
	dir, version, by := servedModels(t, served)
	type doc struct {
		Shapes map[string]struct {
			Documentation string `json:"documentation"`
			Members       map[string]struct {
				Shape         string `json:"shape"`
				Documentation string `json:"documentation"`
			} `json:"members"`
		} `json:"shapes"`
		Operations map[string]struct {
			Input *struct {
				Shape string `json:"shape"`
			} `json:"input"`
		} `json:"operations"`
	}
	docs := map[string]*doc{}
	want := map[sandbox.Operation]time.Duration{}
	for op, models := range by {
		for _, m := range models {
			d, ok := docs[m.Name]
			if !ok {
				d = &doc{}
				if !botocoreFile(t, dir, m.Name, "service-2.json", d) {
					t.Fatalf("%s: no service-2.json", m.Name)
				}
				docs[m.Name] = d
			}
			o := d.Operations[op.Name]
			if o.Input == nil {
				continue
			}
			for name, mem := range d.Shapes[o.Input.Shape].Members {
				if !wire.IsPageMember(name) {
					continue
				}
				got := expires.FindStringSubmatch(mem.Documentation + " " + d.Shapes[mem.Shape].Documentation)
				if got == nil {
					continue
				}
				n, err := strconv.Atoi(got[1])
				if err != nil {
					n = 1
				}
				unit := map[string]time.Duration{"hour": time.Hour, "minute": time.Minute, "day": 24 * time.Hour}[strings.ToLower(got[2])]
				want[op] = time.Duration(n) * unit
			}
		}
	}
	var bad, lived []string
	for op, got := range served {
		if got != want[op] {
			bad = append(bad, fmt.Sprintf("%s: tokens hold for %v, AWS's model documents %v (0: no lifetime)", op, got, want[op]))
		}
		if got > 0 {
			lived = append(lived, fmt.Sprintf("%s %v", op, got))
		}
	}
	sort.Strings(bad)
	sort.Strings(lived)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("botocore %s: %d served operations, %d whose tokens expire: %s", version, len(served), len(lived), strings.Join(lived, ", "))
}

package worldgen_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestCorpusWorldLayout: every case is placed once, in its original stack
// (the construct path's first segment) with its recorded stack tags, in its
// recorded region; a case using an AWS managed KMS alias finds its
// recorded alias targets in its region; the world is valid.
func TestCorpusWorldLayout(t *testing.T) {
	cases, w := corpusCasesWorld(t)
	data, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.ParseWorld(data); err != nil {
		t.Fatalf("generated world is invalid: %v", err)
	}
	places, err := worldgen.Placements(w)
	if err != nil {
		t.Fatal(err)
	}
	if len(places) != len(cases) {
		t.Errorf("%d cases placed, want %d", len(places), len(cases))
	}
	regions := map[[2]string]*sandbox.Region{}
	stacks := map[[3]string]*sandbox.Stack{}
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			regions[[2]string{a.ID, r.Name}] = r
			for _, s := range r.Stacks {
				stacks[[3]string{a.ID, r.Name, s.Name}] = s
			}
		}
	}
	grouped := 0
	for _, c := range cases {
		p, ok := places[c.File]
		if !ok {
			t.Errorf("%s: not placed", c.File)
			continue
		}
		if p.LogicalID != c.Resource.LogicalID {
			t.Errorf("%s: logical id %s", c.File, p.LogicalID)
		}
		region, _ := c.Opts["region"].(string)
		if region == "" {
			region = "us-east-1"
		}
		if p.Region != region {
			t.Errorf("%s: region %s, want %s", c.File, p.Region, region)
		}
		if first, _, ok := strings.Cut(c.Resource.ConstructPath, "/"); ok {
			if p.Stack != first {
				t.Errorf("%s: stack %s, want the original %s", c.File, p.Stack, first)
			}
		} else if !strings.HasPrefix(p.Stack, "corpus-") {
			t.Errorf("%s: stack %s for a case without a construct path", c.File, p.Stack)
		}
		st := stacks[[3]string{p.Account, p.Region, p.Stack}]
		tags := map[string]string{}
		for _, tg := range st.Tags {
			tags[tg.Key] = tg.Value
		}
		want := map[string]string{}
		if m, ok := c.Opts["stackTags"].(map[string]any); ok {
			for k, v := range m {
				want[k], _ = v.(string)
			}
		}
		if diff := cmp.Diff(tags, want, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: stack tags (-got +want):\n%s", c.File, diff)
		}
		if b, _ := json.Marshal(c.Resource.Declared); strings.Contains(string(b), "alias/aws/") {
			want := map[string]string{}
			if m, ok := c.Opts["kmsAliasTargets"].(map[string]any); ok {
				for k, v := range m {
					want[k], _ = v.(string)
				}
			}
			// The region serves the case's aliases, and perhaps aliases of
			// later recordings of the account (they only grow); none when
			// the case recorded none.
			got := regions[[2]string{p.Account, p.Region}].KMSAliases
			served := map[string]string{}
			for k := range want {
				if v, ok := got[k]; ok {
					served[k] = v
				}
			}
			if diff := cmp.Diff(served, want, cmpopts.EquateEmpty()); diff != "" || (len(want) == 0 && len(got) > 0) {
				t.Errorf("%s: KMS aliases (-served +recorded):\n%s (region serves %d)", c.File, diff, len(got))
			}
		}
		if files, _ := worldgen.CorpusCases(st); len(files) > 1 {
			grouped++
		}
	}
	if grouped < len(cases)/2 {
		t.Errorf("only %d cases share a stack with another case", grouped)
	}
	t.Logf("%d cases in %d stacks over %d account regions; %d share their stack", len(cases), len(stacks), len(regions), grouped)
}

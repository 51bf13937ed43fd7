package worldgen_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// corpusCasesWorld loads the dev corpus and the world generated from it.
func corpusCasesWorld(t *testing.T) ([]*corpus.Case, *sandbox.World) {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	return cases, w
}

// corpusWorld is the world generated from the dev corpus.
func corpusWorld(t *testing.T) *sandbox.World {
	t.Helper()
	_, w := corpusCasesWorld(t)
	return w
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestCorpusWorldServesLiveRaw: a world generated from the dev corpus,
// written and loaded back, serves every case's live model equal to its
// liveRaw: through Cloud Control for readable types, through the Go API
// (and UnsupportedActionException from Cloud Control) for gap types.
func TestCorpusWorldServesLiveRaw(t *testing.T) {
	cases, w := corpusCasesWorld(t)
	if len(cases) < 500 {
		t.Fatalf("loaded %d cases, want the dev half", len(cases))
	}
	data, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := sandbox.ParseWorld(data)
	if err != nil {
		t.Fatal(err)
	}
	srv, url := sandboxtest.Serve(t, loaded, sandbox.Options{})
	gaps := map[string]bool{}
	for _, g := range loaded.CCGaps {
		gaps[g] = true
	}
	// Map each case file to its account and region through the template
	// metadata.
	places, err := worldgen.Placements(loaded)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string][2]string{}
	for f, p := range places {
		where[f] = [2]string{p.Account, p.Region}
	}
	ctx := t.Context()
	clients := map[[2]string]*cloudcontrol.Client{}
	served, viaGap, bare := 0, 0, 0
	for _, c := range cases {
		loc, ok := where[c.File]
		if !ok {
			t.Errorf("%s: no stack", c.File)
			continue
		}
		scope := live.Scope{Partition: "aws", Region: loc[1], Account: loc[0]}
		id, err := live.IdentifierIn(scope, c.Resource.ResourceType, c.Resource.PhysicalID, c.Resource.Declared)
		if err != nil {
			id = c.Resource.PhysicalID
		}
		want := compact(t, c.RawLive)
		if gaps[c.Resource.ResourceType] {
			got, ok := srv.Live(loc[0], loc[1], c.Resource.ResourceType, id)
			if !ok || string(got) != want {
				t.Errorf("%s: live model %s, want %s", c.File, got, want)
			}
			viaGap++
			continue
		}
		cc := clients[loc]
		if cc == nil {
			cc = cloudcontrol.NewFromConfig(sandboxtest.Config(url, keyFor(loc[0]), loc[1]))
			clients[loc] = cc
		}
		out, err := cc.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String(c.Resource.ResourceType), Identifier: aws.String(id)})
		if err != nil {
			t.Errorf("%s: GetResource %s %s: %v", c.File, c.Resource.ResourceType, id, err)
			continue
		}
		if got := aws.ToString(out.ResourceDescription.Properties); got != want {
			t.Errorf("%s: Properties\n got %s\nwant %s", c.File, got, want)
		}
		served++
		// As on AWS, a compound (or ARN) identifier type asked by its bare
		// physical id is not found.
		if pid := c.Resource.PhysicalID; pid != id {
			_, err := cc.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String(c.Resource.ResourceType), Identifier: aws.String(pid)})
			var nf *cctypes.ResourceNotFoundException
			if !errors.As(err, &nf) {
				t.Errorf("%s: GetResource by the bare physical id %s: %v, want ResourceNotFoundException", c.File, pid, err)
			}
			bare++
		}
	}
	t.Logf("%d cases served through Cloud Control (%d of them also asked by their bare physical id: not found), %d through the gap path", served, bare, viaGap)
	if served < 450 || viaGap == 0 {
		t.Errorf("served %d, gaps %d: the corpus world lost cases", served, viaGap)
	}

	// The stack of a case reads back through CloudFormation.
	cfn := cloudformation.NewFromConfig(sandboxtest.Config(url, keyFor(worldgen.CorpusAccount), "us-east-1"))
	tpl, err := cfn.GetTemplate(ctx, &cloudformation.GetTemplateInput{StackName: aws.String("CdkrdIntegHarvest2")})
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid([]byte(aws.ToString(tpl.TemplateBody))) {
		t.Error("template is not JSON")
	}
}

func keyFor(account string) string { return worldgen.AccessKey(account) }

// TestCorpusWorldHoldsOnlyCases: a member instance's recorded cluster is
// an account-region resource, never a stack resource no case recorded.
func TestCorpusWorldHoldsOnlyCases(t *testing.T) {
	cases, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	outside := 0
	for _, a := range w.Accounts {
		for _, reg := range a.Regions {
			outside += len(reg.Resources)
			for _, st := range reg.Stacks {
				files, err := worldgen.CorpusCases(st)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range st.Resources {
					if strings.HasSuffix(r.Type, "::DBCluster") && files[r.LogicalID] == "" {
						t.Errorf("stack %s holds %s %s, no case", st.Name, r.Type, r.LogicalID)
					}
				}
			}
		}
	}
	if outside == 0 {
		t.Error("no recorded cluster is in an account region")
	}
}

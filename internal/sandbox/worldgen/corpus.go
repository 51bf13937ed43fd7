package worldgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

// CorpusAccount is the account corpus cases were recorded in (sanitised).
const CorpusAccount = "111111111111"

// CaseTag is the stack tag naming the corpus case a stack reproduces.
const CaseTag = "realdrift:corpus-case"

// unresolvable is the template value standing for a declared value the
// corpus recorded as unresolved: Fn::GetAZs depends on the environment, so
// a fail-closed resolver leaves it unresolved.
var unresolvable = map[string]any{"Fn::GetAZs": ""}

// corpusGaps are the types Cloud Control cannot read on AWS among those the
// readers serve through a service API; the corpus world lists them as
// gaps so they fail there the way they fail on AWS.
var corpusGaps = []string{
	"AWS::IAM::Policy",
	"AWS::Lambda::Permission",
	"AWS::S3::BucketPolicy",
	"AWS::SNS::TopicPolicy",
	"AWS::SQS::QueuePolicy",
}

// AccessKey is the access key id the corpus world maps to account.
func AccessKey(account string) string { return "AKIACORPUS" + account }

// FromCorpus builds a world reproducing golden-corpus cases: one stack per
// case (see the package doc for the layout).
func FromCorpus(cases []*corpus.Case) (*sandbox.World, error) {
	w := &sandbox.World{
		DefaultAccount: CorpusAccount,
		CCGaps:         append([]string(nil), corpusGaps...),
		Schemas:        map[string]*schema.Facts{},
	}
	accounts := map[string]*sandbox.Account{}
	var order []string
	// used[account] holds the Cloud Control addresses taken in it.
	used := map[string]map[string]bool{}
	names := map[string]bool{}
	for _, c := range cases {
		if err := addCase(w, c, accounts, &order, used, names); err != nil {
			return nil, err
		}
	}
	for _, id := range order {
		w.Accounts = append(w.Accounts, accounts[id])
	}
	if len(w.Accounts) == 0 {
		w.Accounts = []*sandbox.Account{{ID: CorpusAccount, Name: "corpus", AccessKeys: []sandbox.AccessKey{{ID: AccessKey(CorpusAccount), UserName: "corpus"}}}}
	}
	return w, nil
}

func addCase(w *sandbox.World, c *corpus.Case, accounts map[string]*sandbox.Account, order *[]string, used map[string]map[string]bool, names map[string]bool) error {
	r := c.Resource
	region, _ := c.Opts["region"].(string)
	if region == "" {
		region = "us-east-1"
	}
	if r.PhysicalID == "" {
		return fmt.Errorf("case %s: no physical id", c.File)
	}
	id, err := live.Identifier(r.ResourceType, r.PhysicalID, r.Declared)
	if err != nil || id == "" {
		id = r.PhysicalID
	}
	// A case whose address collides with an earlier case's goes to the next
	// overflow account (111111111112, ...).
	scope := region
	if strings.HasPrefix(r.ResourceType, "AWS::IAM::") || strings.HasPrefix(r.ResourceType, "AWS::Route53::") || strings.HasPrefix(r.ResourceType, "AWS::CloudFront::") {
		scope = "global"
	}
	addr := scope + "|" + r.ResourceType + "|" + id
	account := CorpusAccount
	for n := 1; used[account][addr]; n++ {
		account = fmt.Sprintf("1111111111%02d", 11+n)
	}
	if used[account] == nil {
		used[account] = map[string]bool{}
	}
	used[account][addr] = true
	a := accounts[account]
	if a == nil {
		a = &sandbox.Account{ID: account, Name: "corpus", AccessKeys: []sandbox.AccessKey{{ID: AccessKey(account), UserName: "corpus"}}}
		if account != CorpusAccount {
			a.Name = "corpus-overflow"
		}
		accounts[account] = a
		*order = append(*order, account)
	}
	var reg *sandbox.Region
	for _, x := range a.Regions {
		if x.Name == region {
			reg = x
		}
	}
	if reg == nil {
		reg = &sandbox.Region{Name: region}
		a.Regions = append(a.Regions, reg)
	}

	name := stackName(c.File, names)
	res := map[string]any{
		"Type":       r.ResourceType,
		"Properties": encodeDeclared(r.Declared),
	}
	if r.ConstructPath != "" {
		res["Metadata"] = map[string]any{"aws:cdk:path": r.ConstructPath}
	}
	resources := map[string]any{r.LogicalID: res}
	stackRes := []*sandbox.Resource{{
		LogicalID: r.LogicalID, Type: r.ResourceType, PhysicalID: r.PhysicalID,
		Properties: append(json.RawMessage(nil), c.RawLive...),
	}}
	if id != r.PhysicalID {
		stackRes[0].Identifier = id
	}
	if r.ResourceType == "AWS::IAM::Role" {
		for _, pn := range r.SiblingPolicyNames {
			tpl, sr := siblingPolicy(name, r.LogicalID, r.PhysicalID, pn, c.LiveRaw)
			resources[pn] = tpl
			stackRes = append(stackRes, sr)
		}
	}
	tpl := map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Description":              "realdrift corpus case " + c.File,
		"Resources":                resources,
	}
	body, err := indentJSON(tpl)
	if err != nil {
		return fmt.Errorf("case %s: template: %w", c.File, err)
	}
	reg.Stacks = append(reg.Stacks, &sandbox.Stack{
		Name:         name,
		Status:       "CREATE_COMPLETE",
		Description:  "realdrift corpus case " + c.File,
		Tags:         []sandbox.Tag{{Key: CaseTag, Value: c.File}},
		TemplateBody: string(body),
		Resources:    stackRes,
	})
	if _, ok := w.Schemas[r.ResourceType]; !ok {
		f := c.Schema
		w.Schemas[r.ResourceType] = &f
	}
	return nil
}

// siblingPolicy builds the AWS::IAM::Policy a role case's sibling policy
// name stands for: declared and live documents are the role's live inline
// policy of that name, so the sibling adds no finding of its own.
func siblingPolicy(stack, roleLogical, roleName, policyName string, roleLive map[string]any) (map[string]any, *sandbox.Resource) {
	var doc any = unresolvable
	if ps, ok := roleLive["Policies"].([]any); ok {
		for _, p := range ps {
			if m, ok := p.(map[string]any); ok && m["PolicyName"] == policyName {
				doc = m["PolicyDocument"]
			}
		}
	}
	tpl := map[string]any{
		"Type": "AWS::IAM::Policy",
		"Properties": map[string]any{
			"PolicyName":     policyName,
			"PolicyDocument": doc,
			"Roles":          []any{map[string]any{"Ref": roleLogical}},
		},
	}
	liveModel := map[string]any{"PolicyName": policyName, "Roles": []any{roleName}}
	if m, ok := doc.(map[string]any); ok {
		if _, unknown := m["Fn::GetAZs"]; !unknown {
			liveModel["PolicyDocument"] = doc
		}
	}
	b, _ := json.Marshal(liveModel)
	return tpl, &sandbox.Resource{
		LogicalID:  policyName,
		Type:       "AWS::IAM::Policy",
		PhysicalID: truncate(stack, 20) + "-" + truncate(policyName, 20) + "-" + hash12(stack+"/"+policyName),
		Properties: b,
	}
}

// encodeDeclared turns resolved declared values back into template
// values: drift.Unknown becomes the unresolvable intrinsic.
func encodeDeclared(v any) any {
	switch t := v.(type) {
	case drift.Unknown:
		return unresolvable
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = encodeDeclared(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = encodeDeclared(e)
		}
		return out
	}
	return v
}

var nonName = regexp.MustCompile(`[^A-Za-z0-9-]+`)

// stackName derives a unique stack name from a case file name.
func stackName(file string, taken map[string]bool) string {
	base := strings.TrimSuffix(file, ".json")
	base = strings.ReplaceAll(base, "__", "-")
	base = strings.Trim(nonName.ReplaceAllString(base, "-"), "-")
	base = truncate("corpus-"+base, 120)
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	taken[name] = true
	return name
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func hash12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return strings.ToUpper(hex.EncodeToString(sum[:6]))
}

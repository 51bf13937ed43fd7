package worldgen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

// DemoAccount is one account of the demo organisation.
type DemoAccount struct {
	ID, Name string
	Regions  []string
}

// DemoOrganizationID is the demo organisation's id.
const DemoOrganizationID = "o-acme0demo1"

// DemoAccounts are the demo organisation's accounts; the first is the
// management account, the second (acme-dev) the one the demo and the
// README act as (DemoDefaultAccount).
func DemoAccounts() []DemoAccount {
	return []DemoAccount{
		{"100000000001", "acme-management", []string{"us-east-1", "eu-west-1"}},
		{"200000000002", "acme-dev", []string{"us-east-1", "eu-west-1"}},
		{"300000000003", "acme-prod", []string{"us-east-1", "eu-west-1"}},
	}
}

// DemoDefaultAccount is the demo world's default account: acme-dev, where
// the demo's stacks are and the account the README's keys act as, so an
// out-of-band change sent without an account or key lands where check
// reads.
const DemoDefaultAccount = "200000000002"

// DemoAccessKey is the access key id the demo world maps to account.
func DemoAccessKey(account string) string { return "AKIADEMO" + account }

// demoRecordings names, per type, the golden-corpus case whose live model
// is the base of the demo's live models of that type.
var demoRecordings = map[string]string{
	"AWS::SQS::Queue":                 "AWS__SQS__Queue.DlqD1FAA4AD.json",
	"AWS::SQS::QueuePolicy":           "AWS__SQS__QueuePolicy.InboxPolicy63A7501F.json",
	"AWS::SNS::Topic":                 "AWS__SNS__Topic.EventsD32975C2.json",
	"AWS::SNS::Subscription":          "AWS__SNS__Subscription.Subscription_redrive.json",
	"AWS::S3::Bucket":                 "AWS__S3__Bucket.Assets9A31D427.json",
	"AWS::S3::BucketPolicy":           "AWS__S3__BucketPolicy.DataPolicyB80589C3.json",
	"AWS::IAM::Role":                  "AWS__IAM__Role.ApiFnServiceRoleD18AAE0E.json",
	"AWS::IAM::Policy":                "AWS__IAM__Policy.BuildRoleDefaultPolicyEAC4E6D6.json",
	"AWS::Lambda::Function":           "AWS__Lambda__Function.Worker11F36D0F.json",
	"AWS::Lambda::Permission":         "AWS__Lambda__Permission.ApiMethodPermission.json",
	"AWS::Lambda::EventSourceMapping": "AWS__Lambda__EventSourceMapping.QueueTrigger.json",
	"AWS::DynamoDB::Table":            "AWS__DynamoDB__Table.Sessions8896A56D.json",
	"AWS::ApiGateway::RestApi":        "AWS__ApiGateway__RestApi.Api.json",
	"AWS::ApiGateway::Deployment":     "AWS__ApiGateway__Deployment.ApiDeploymentB17BE62Dba7acbf1af74a3eadf05ad1a398840e5.json",
	"AWS::ApiGateway::Stage":          "AWS__ApiGateway__Stage.ApiDeploymentStageprod3EB9684E.json",
}

// DemoRecordings returns the corpus case file each demo type is built from.
func DemoRecordings() map[string]string {
	out := map[string]string{}
	for k, v := range demoRecordings {
		out[k] = v
	}
	return out
}

// demoDefaults fill live properties AWS returns that a recording declared
// (and so cannot serve as the default). It returns fresh values each call.
func demoDefaults(typ string) obj {
	return map[string]obj{
		"AWS::SQS::Queue":       {"MessageRetentionPeriod": 345600.0, "VisibilityTimeout": 30.0},
		"AWS::Lambda::Function": {"TracingConfig": obj{"Mode": "PassThrough"}, "Description": ""},
		"AWS::SNS::Topic":       {"FifoTopic": false},
	}[typ]
}

// Demo builds the demo organisation: three accounts, each with an orders
// application (a data stack and a service stack) in two regions. Live
// models start from corpus recordings of each type (cases, looked up by
// the file names DemoRecordings lists; a type without its recording gets
// only the declared and identity properties) and are made consistent with
// the demo's names, ARNs, accounts and regions. Output is deterministic.
func Demo(cases []*corpus.Case) (*sandbox.World, error) {
	byFile := map[string]*corpus.Case{}
	for _, c := range cases {
		byFile[c.File] = c
	}
	g := &demoGen{recordings: map[string]*corpus.Case{}}
	for typ, file := range demoRecordings {
		if c := byFile[file]; c != nil {
			g.recordings[typ] = c
		}
	}
	accts := DemoAccounts()
	w := &sandbox.World{
		DefaultAccount: DemoDefaultAccount,
		Organization:   &sandbox.Organization{ID: DemoOrganizationID, ManagementAccountID: accts[0].ID, FeatureSet: "ALL"},
		CCGaps:         live.CloudControlGaps(),
		Schemas:        map[string]*schema.Facts{},
	}
	for _, typ := range sortedTypes(g.recordings) {
		f := g.recordings[typ].Schema
		w.Schemas[typ] = &f
	}
	for _, a := range accts {
		acct := &sandbox.Account{ID: a.ID, Name: a.Name, Email: "aws+" + a.Name + "@acme.example",
			AccessKeys: []sandbox.AccessKey{{ID: DemoAccessKey(a.ID), UserName: "demo"}}}
		for _, region := range a.Regions {
			r := &sandbox.Region{Name: region}
			data, exports, err := g.dataStack(a.ID, region)
			if err != nil {
				return nil, err
			}
			svc, err := g.serviceStack(a.ID, region, exports)
			if err != nil {
				return nil, err
			}
			r.Stacks = append(r.Stacks, data, svc)
			acct.Regions = append(acct.Regions, r)
		}
		w.Accounts = append(w.Accounts, acct)
	}
	return w, nil
}

func sortedTypes(m map[string]*corpus.Case) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type demoGen struct {
	recordings map[string]*corpus.Case
}

// demoRes is one resource of a demo stack being built.
type demoRes struct {
	logical, typ, path string
	props              obj // template properties (with intrinsics)
	physical, ccID     string
	attrs              obj
	identity           obj // read-only live properties
	extra              obj // template keys beside Properties
}

type stackBuilder struct {
	g       *demoGen
	env     *env
	name    string
	res     []*demoRes
	outputs []sandbox.Output
	tplOut  obj
}

func (g *demoGen) newStack(account, region, name string) *stackBuilder {
	return &stackBuilder{g: g, name: name, tplOut: obj{}, env: &env{
		account: account, region: region, stackName: name, stackID: sandbox.StackID(region, account, name),
		refs: map[string]string{}, attrs: map[string]map[string]any{}, exports: map[string]string{},
	}}
}

// logicalID returns a CDK-style logical id: the path's last meaningful
// parts plus an 8-hex hash of the whole path.
func logicalID(path string) string {
	parts := strings.Split(path, "/")
	var keep []string
	for _, p := range parts[1:] {
		if p != "Resource" && p != "Default" {
			keep = append(keep, nonAlnum.ReplaceAllString(p, ""))
		}
	}
	sum := sha256.Sum256([]byte(path))
	return strings.Join(keep, "") + strings.ToUpper(hex.EncodeToString(sum[:4]))
}

var nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// suffix returns n characters from charset derived from seed.
func suffix(seed string, n int, charset string) string {
	sum := sha256.Sum256([]byte(seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = charset[int(sum[i%len(sum)]+byte(i/len(sum)))%len(charset)]
	}
	return string(b)
}

// cfnName is a CloudFormation-generated name: stack-logical-suffix, each
// part cut so the whole fits max.
func (b *stackBuilder) cfnName(logical string, max int) string {
	sfx := suffix(b.env.stackID+"/"+logical, 12, alnum)
	room := max - len(sfx) - 2
	st, lg := b.name, logical
	if len(st)+len(lg) > room {
		half := room / 2
		if len(st) > half {
			st = st[:half]
		}
		if len(st)+len(lg) > room {
			lg = lg[:room-len(st)]
		}
	}
	return st + "-" + lg + "-" + sfx
}

func (b *stackBuilder) add(r *demoRes) *demoRes {
	if r.ccID == "" {
		r.ccID = r.physical
	}
	b.res = append(b.res, r)
	b.env.refs[r.logical] = r.physical
	b.env.attrs[r.logical] = r.attrs
	return r
}

func (b *stackBuilder) export(key, name string, value any) error {
	v, err := b.env.resolve(value)
	if err != nil {
		return err
	}
	s := fmt.Sprint(v)
	o := obj{"Value": value}
	if name != "" {
		o["Export"] = obj{"Name": name}
	}
	b.tplOut[key] = o
	b.outputs = append(b.outputs, sandbox.Output{Key: key, Value: s, ExportName: name})
	return nil
}

// build renders the template and the stack with live models.
func (b *stackBuilder) build(description string) (*sandbox.Stack, error) {
	resources := obj{}
	var stackRes []*sandbox.Resource
	lives := map[string]obj{}
	for _, r := range b.res {
		tr := obj{"Type": r.typ, "Properties": r.props, "Metadata": obj{"aws:cdk:path": r.path}}
		for k, v := range r.extra {
			tr[k] = v
		}
		resources[r.logical] = tr
		declared, err := b.env.resolve(r.props)
		if err != nil {
			return nil, fmt.Errorf("demo stack %s resource %s: %w", b.name, r.logical, err)
		}
		lives[r.logical] = b.g.live(r, declared.(obj), b.env)
	}
	// Cloud Control reads every inline policy of a role, those attached by
	// an AWS::IAM::Policy included.
	for _, r := range b.res {
		if r.typ != "AWS::IAM::Policy" {
			continue
		}
		p := lives[r.logical]
		for _, role := range p["Roles"].([]any) {
			for _, rr := range b.res {
				if rr.typ == "AWS::IAM::Role" && rr.physical == role {
					pols, _ := lives[rr.logical]["Policies"].([]any)
					lives[rr.logical]["Policies"] = append(pols, obj{"PolicyName": p["PolicyName"], "PolicyDocument": p["PolicyDocument"]})
				}
			}
		}
	}
	for _, r := range b.res {
		live, err := json.Marshal(lives[r.logical])
		if err != nil {
			return nil, err
		}
		sr := &sandbox.Resource{LogicalID: r.logical, Type: r.typ, PhysicalID: r.physical, Properties: live}
		if r.ccID != r.physical {
			sr.Identifier = r.ccID
		}
		stackRes = append(stackRes, sr)
	}
	tpl := obj{
		"Description": description,
		"Parameters": obj{"BootstrapVersion": obj{
			"Type":        "AWS::SSM::Parameter::Value<String>",
			"Default":     "/cdk-bootstrap/hnb659fds/version",
			"Description": "Version of the CDK Bootstrap resources in this environment, automatically retrieved from SSM Parameter Store. [cdk:skip]",
		}},
		"Resources": resources,
		"Rules": obj{"CheckBootstrapVersion": obj{"Assertions": list(obj{
			"Assert":            obj{"Fn::Not": list(obj{"Fn::Contains": list(list("1", "2", "3", "4", "5"), ref("BootstrapVersion"))})},
			"AssertDescription": "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
		})}},
	}
	if len(b.tplOut) > 0 {
		tpl["Outputs"] = b.tplOut
	}
	body, err := indentJSON(tpl)
	if err != nil {
		return nil, err
	}
	return &sandbox.Stack{
		Name: b.name, ID: b.env.stackID, Status: "CREATE_COMPLETE", Description: description,
		Parameters:   []sandbox.Parameter{{Key: "BootstrapVersion", Value: "/cdk-bootstrap/hnb659fds/version", ResolvedValue: "21"}},
		Outputs:      b.outputs,
		Tags:         []sandbox.Tag{{Key: "app", Value: "orders"}},
		TemplateBody: string(body),
		Resources:    stackRes,
		Capabilities: []string{"CAPABILITY_IAM"},
		Imports:      b.env.imported(),
	}, nil
}

// live builds a resource's live model: the recording's live-only
// properties with the recording's names rewritten, the declared values
// merged in, the identity properties set, write-only paths dropped and the
// CloudFormation tags rewritten.
func (g *demoGen) live(r *demoRes, declared obj, e *env) obj {
	m := obj{}
	rec := g.recordings[r.typ]
	hadTags := false
	if rec != nil {
		var base obj
		_ = json.Unmarshal(rec.RawLive, &base)
		for k := range rec.Resource.Declared {
			delete(base, k)
		}
		_, hadTags = base["Tags"]
		delete(base, "Tags")
		recRegion, _ := rec.Opts["region"].(string)
		repl := strings.NewReplacer(rec.Resource.PhysicalID, r.physical, "111111111111", e.account, ":"+recRegion+":", ":"+e.region+":", "."+recRegion+".", "."+e.region+".")
		m = rewrite(base, repl).(obj)
	}
	for k, v := range demoDefaults(r.typ) {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	userTags, _ := declared["Tags"].([]any)
	merge(m, declared)
	for k, v := range r.identity {
		m[k] = v
	}
	if rec != nil {
		for _, p := range rec.Schema.WriteOnlyPaths {
			dropPath(m, strings.Split(p, "."))
		}
	}
	if hadTags {
		tags := append([]any(nil), userTags...)
		tags = append(tags,
			obj{"Key": "aws:cloudformation:logical-id", "Value": r.logical},
			obj{"Key": "aws:cloudformation:stack-id", "Value": e.stackID},
			obj{"Key": "aws:cloudformation:stack-name", "Value": e.stackName})
		m["Tags"] = tags
	}
	return m
}

func rewrite(v any, r *strings.Replacer) any {
	switch t := v.(type) {
	case string:
		return r.Replace(t)
	case map[string]any:
		for k, x := range t {
			t[k] = rewrite(x, r)
		}
	case []any:
		for i, x := range t {
			t[i] = rewrite(x, r)
		}
	}
	return v
}

// merge deep-merges src into dst: objects merge, everything else replaces.
func merge(dst, src obj) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				merge(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
}

func dropPath(v any, path []string) {
	switch t := v.(type) {
	case map[string]any:
		if len(path) == 1 {
			if _, ok := t[path[0]]; ok && path[0] != "*" {
				delete(t, path[0])
			}
			return
		}
		dropPath(t[path[0]], path[1:])
	case []any:
		if path[0] == "*" {
			for _, e := range t {
				dropPath(e, path[1:])
			}
		}
	}
}

// indentJSON writes v as indented JSON without HTML escaping.
func indentJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

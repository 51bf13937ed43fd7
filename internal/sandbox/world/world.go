package world

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/inputfile"
	"github.com/realdrift/realdrift/internal/schema"
)

// World is the storage shape of an emulated organisation: the JSON world
// file. The package doc describes every field.
type World struct {
	// DefaultAccount answers requests whose access key the world does not map.
	DefaultAccount string        `json:"defaultAccount,omitempty"`
	Organization   *Organization `json:"organization,omitempty"`
	Accounts       []*Account    `json:"accounts"`
	// CCGaps are resource types Cloud Control cannot read here, as on AWS
	// (GetResource/ListResources answer UnsupportedActionException).
	CCGaps []string `json:"ccGaps,omitempty"`
	// Schemas are per-type schema facts that win over the server's facts
	// source (corpus worlds carry each case's own).
	Schemas map[string]*schema.Facts `json:"schemas,omitempty"`
}

// Organization describes the AWS Organization the accounts belong to.
type Organization struct {
	ID                  string `json:"id"`
	ManagementAccountID string `json:"managementAccountId"`
	FeatureSet          string `json:"featureSet,omitempty"`
	// SCPs are the service control policies attached to member accounts
	// (orgpolicy.go).
	SCPs []*ServiceControlPolicy `json:"serviceControlPolicies,omitempty"`
}

// Account is one AWS account.
type Account struct {
	ID         string      `json:"id"`
	Name       string      `json:"name,omitempty"`
	Email      string      `json:"email,omitempty"`
	AccessKeys []AccessKey `json:"accessKeys,omitempty"`
	Regions    []*Region   `json:"regions"`
	// Policies are the identity policies of the account's roles and users
	// the sandbox enforces (iampolicy.go); a principal without any may do
	// anything.
	Policies []*Policies `json:"policies,omitempty"`
	// TrustPolicies are its roles' trust policies the sandbox enforces on
	// sts:AssumeRole (orgpolicy.go); a role without one may be assumed by
	// any principal of a world account.
	TrustPolicies []*TrustPolicy `json:"trustPolicies,omitempty"`
}

// AccessKey maps an access key id to the account and an IAM user name,
// or to a session of one of its roles: the credentials a Lambda function
// receives from its execution role (the session is named after the role).
// Neither set, the key acts as the account root.
type AccessKey struct {
	ID       string `json:"id"`
	UserName string `json:"userName,omitempty"`
	Role     string `json:"role,omitempty"`
}

// Region holds the stacks and live-only resources of one account region.
// Global resource types (IAM, CloudFront, Route 53, ...) may be placed in
// any region; they are visible from every region of the account.
type Region struct {
	Name      string      `json:"name"`
	Stacks    []*Stack    `json:"stacks,omitempty"`
	Resources []*Resource `json:"resources,omitempty"`
	// Schemas are per-type schema facts of this account region; they win
	// over the world's (the CloudFormation registry is regional, and a
	// corpus world places cases recorded with other facts apart).
	Schemas map[string]*schema.Facts `json:"schemas,omitempty"`
	// KMSAliases maps alias names (alias/...) to the key ids they target,
	// as KMS ListAliases lists them here.
	KMSAliases map[string]string `json:"kmsAliases,omitempty"`
	// DefaultSecurityGroups are the ids of default security groups of VPCs
	// the world does not model (the region's default VPC, a recording's
	// VPC): DescribeSecurityGroups lists each as the group named "default"
	// of a VPC derived from its id, beside the default group of every
	// AWS::EC2::VPC the world holds.
	DefaultSecurityGroups []string `json:"defaultSecurityGroups,omitempty"`
}

// Stack is one CloudFormation stack.
type Stack struct {
	Name                  string      `json:"name"`
	ID                    string      `json:"id,omitempty"`
	Status                string      `json:"status,omitempty"`
	Description           string      `json:"description,omitempty"`
	CreationTime          *time.Time  `json:"creationTime,omitempty"`
	LastUpdatedTime       *time.Time  `json:"lastUpdatedTime,omitempty"`
	Parameters            []Parameter `json:"parameters,omitempty"`
	Outputs               []Output    `json:"outputs,omitempty"`
	Tags                  []Tag       `json:"tags,omitempty"`
	TemplateBody          string      `json:"templateBody"`
	ProcessedTemplateBody string      `json:"processedTemplateBody,omitempty"`
	Resources             []*Resource `json:"resources,omitempty"`
	Capabilities          []string    `json:"capabilities,omitempty"`
	TerminationProtection bool        `json:"terminationProtection,omitempty"`
	// ParentID and RootID are the ARNs of a nested stack's parent and of
	// the top of its tree, as DescribeStacks and ListStacks show them. The
	// world may leave them out: they are derived from the
	// AWS::CloudFormation::Stack resources whose physical id is the stack's
	// ARN (nested.go).
	ParentID string `json:"parentId,omitempty"`
	RootID   string `json:"rootId,omitempty"`
	// Imports are the export names the stack imports (Fn::ImportValue),
	// as CloudFormation records them when it deploys the stack:
	// ListImports answers from them.
	Imports []string `json:"imports,omitempty"`
}

// Parameter is a stack parameter as DescribeStacks shows it.
type Parameter struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// ResolvedValue is set for SSM-parameter-typed parameters.
	ResolvedValue string `json:"resolvedValue,omitempty"`
	// NoEcho parameters are shown as "****", as CloudFormation does.
	NoEcho bool `json:"noEcho,omitempty"`
}

// Output is a stack output; ExportName makes it an export.
type Output struct {
	Key         string `json:"key"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	ExportName  string `json:"exportName,omitempty"`
}

// Tag is a key/value pair.
type Tag struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Resource is one resource: a stack resource (LogicalID set) or a live-only
// resource (created out of band, LogicalID empty). Its live model is
// Properties, the JSON object Cloud Control returns.
type Resource struct {
	LogicalID  string `json:"logicalId,omitempty"`
	Type       string `json:"type"`
	PhysicalID string `json:"physicalId,omitempty"`
	// Identifier is the Cloud Control identifier when it differs from the
	// physical id (composites are joined by "|").
	Identifier string          `json:"identifier,omitempty"`
	Status     string          `json:"status,omitempty"`
	Properties json.RawMessage `json:"properties,omitempty"`
	// Deleted marks a resource deleted out of band: the stack still lists
	// it, every read answers not found.
	Deleted bool `json:"deleted,omitempty"`
	// PolicyVersions are the versions of an AWS::IAM::ManagedPolicy; the
	// default one mirrors Properties.PolicyDocument.
	PolicyVersions []PolicyVersion `json:"policyVersions,omitempty"`
}

// PolicyVersion is one IAM managed-policy version.
type PolicyVersion struct {
	VersionID string          `json:"versionId"`
	Document  json.RawMessage `json:"document"`
	Default   bool            `json:"default,omitempty"`
	Created   time.Time       `json:"created"`
}

// ccID is the resource's Cloud Control identifier.
func (r *Resource) CCID() string {
	if r.Identifier != "" {
		return r.Identifier
	}
	return r.PhysicalID
}

// MaxWorldFile is the size limit of a world file: far above a world built
// from the whole corpus, far below what a wrong path could feed a reader.
const MaxWorldFile = 512 << 20

// LoadWorld reads and validates a world file: a regular file within
// MaxWorldFile (inputfile), else an error naming it.
func LoadWorld(path string) (*World, error) {
	data, err := inputfile.Read(path, MaxWorldFile)
	if err != nil {
		return nil, fmt.Errorf("read world: %w", err)
	}
	w, err := ParseWorld(data)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", path, err)
	}
	return w, nil
}

// ParseWorld decodes and validates a world. Unknown fields are errors, so a
// misspelt key is named rather than ignored.
func ParseWorld(data []byte) (*World, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w World
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("decode%s: %w", where(data, err), err)
	}
	if err := w.Normalize(); err != nil {
		return nil, err
	}
	return &w, nil
}

// where names the place of a decode error: " at 3:14" (line:column) for a
// syntax error, " at line 3" for a wrong type (whose offset is the end of
// the value); "" when the error has no offset.
func where(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	lineOf := func(off int64) (int, int) {
		off = max(0, min(off, int64(len(data))))
		before := data[:off]
		return bytes.Count(before, []byte("\n")) + 1, int(off) - bytes.LastIndexByte(before, '\n')
	}
	switch {
	case errors.As(err, &se):
		line, col := lineOf(se.Offset - 1)
		return fmt.Sprintf(" at %d:%d", line, col)
	case errors.As(err, &te):
		line, _ := lineOf(te.Offset)
		return fmt.Sprintf(" at line %d", line)
	}
	return ""
}

// Marshal writes the world as indented JSON without HTML escaping, so live
// models keep their bytes.
func (w *World) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("encode world: %w", err)
	}
	return buf.Bytes(), nil
}

var (
	AccountRE   = regexp.MustCompile(`^[0-9]{12}$`)
	regionRE    = regexp.MustCompile(`^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-[0-9]$`)
	stackNameRE = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9]{0,127}$`)
	typeRE      = regexp.MustCompile(`^(AWS|Alexa|Custom)::[A-Za-z0-9]+(::[A-Za-z0-9]+)?$`)
	stackIDRE   = regexp.MustCompile(`^arn:aws[-a-z]*:cloudformation:([a-z0-9-]+):([0-9]{12}):stack/([^/]+)/[-0-9a-f]+$`)
	accessKeyRE = regexp.MustCompile(`^[A-Z0-9]{16,128}$`)
	kmsAliasRE  = regexp.MustCompile(`^alias/[a-zA-Z0-9:/_-]{1,250}$`)
	sgIDRE      = regexp.MustCompile(`^sg-[0-9a-f]{8,17}$`)
)

// stackStatuses are the statuses CloudFormation reports.
var stackStatuses = map[string]bool{
	"CREATE_IN_PROGRESS": true, "CREATE_FAILED": true, "CREATE_COMPLETE": true,
	"ROLLBACK_IN_PROGRESS": true, "ROLLBACK_FAILED": true, "ROLLBACK_COMPLETE": true,
	"DELETE_IN_PROGRESS": true, "DELETE_FAILED": true, "DELETE_COMPLETE": true,
	"UPDATE_IN_PROGRESS": true, "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS": true, "UPDATE_COMPLETE": true,
	"UPDATE_FAILED": true, "UPDATE_ROLLBACK_IN_PROGRESS": true, "UPDATE_ROLLBACK_FAILED": true,
	"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS": true, "UPDATE_ROLLBACK_COMPLETE": true,
	"REVIEW_IN_PROGRESS": true, "IMPORT_IN_PROGRESS": true, "IMPORT_COMPLETE": true,
	"IMPORT_ROLLBACK_IN_PROGRESS": true, "IMPORT_ROLLBACK_FAILED": true, "IMPORT_ROLLBACK_COMPLETE": true,
}

// maxErrors bounds how many problems a validation reports.
const maxErrors = 20

type problems struct{ errs []error }

func (p *problems) add(where, format string, args ...any) {
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...)))
	}
}

// once records key in seen; a key seen before is a problem at where.
func (p *problems) once(seen map[string]bool, key, where, format string, args ...any) {
	if seen[key] {
		p.add(where, format, args...)
	}
	seen[key] = true
}

// normalize validates the world, fills derivable defaults (stack ids,
// statuses, the default account) and compacts live models.
func (w *World) Normalize() error {
	var p problems
	if len(w.Accounts) == 0 {
		p.add("accounts", "the world has no account")
	}
	accounts := map[string]bool{}
	keys := map[string]string{}
	for ai, a := range w.Accounts {
		at := fmt.Sprintf("accounts[%d]", ai)
		if a == nil {
			p.add(at, "null account")
			continue
		}
		if !AccountRE.MatchString(a.ID) {
			p.add(at, "id %q is not a 12-digit account id", a.ID)
		}
		p.once(accounts, a.ID, at, "account %s appears twice", a.ID)
		for ki, k := range a.AccessKeys {
			kt := fmt.Sprintf("%s.accessKeys[%d]", at, ki)
			if !accessKeyRE.MatchString(k.ID) {
				p.add(kt, "access key id %q must be 16-128 upper-case letters or digits", k.ID)
			}
			if prev, ok := keys[k.ID]; ok {
				p.add(kt, "access key %s already maps to account %s", k.ID, prev)
			}
			if k.Role != "" && k.UserName != "" {
				p.add(kt, "access key %s names both a user and a role", k.ID)
			}
			keys[k.ID] = a.ID
		}
		normalizePolicies(&p, at, a)
		normalizeTrust(&p, at, a)
		regions := map[string]bool{}
		for ri, r := range a.Regions {
			rt := fmt.Sprintf("%s.regions[%d]", at, ri)
			if r == nil {
				p.add(rt, "null region")
				continue
			}
			if !regionRE.MatchString(r.Name) {
				p.add(rt, "%q is not a region name", r.Name)
			}
			p.once(regions, r.Name, rt, "region %s appears twice", r.Name)
			w.normalizeRegion(&p, rt, a.ID, r)
		}
	}
	if w.DefaultAccount == "" && len(w.Accounts) > 0 && w.Accounts[0] != nil {
		w.DefaultAccount = w.Accounts[0].ID
	}
	if w.DefaultAccount != "" && !accounts[w.DefaultAccount] {
		p.add("defaultAccount", "%s is not one of the world's accounts", w.DefaultAccount)
	}
	if o := w.Organization; o != nil {
		if !strings.HasPrefix(o.ID, "o-") {
			p.add("organization.id", "%q is not an organization id (o-...)", o.ID)
		}
		if !accounts[o.ManagementAccountID] {
			p.add("organization.managementAccountId", "%s is not one of the world's accounts", o.ManagementAccountID)
		}
		if o.FeatureSet == "" {
			o.FeatureSet = "ALL"
		}
		normalizeSCPs(&p, o, accounts)
	}
	for _, g := range w.CCGaps {
		if !typeRE.MatchString(g) {
			p.add("ccGaps", "%q is not a resource type", g)
		}
	}
	for t := range w.Schemas {
		if !typeRE.MatchString(t) {
			p.add("schemas", "%q is not a resource type", t)
		}
	}
	w.checkIdentifiers(&p)
	return errors.Join(p.errs...)
}

func (w *World) normalizeRegion(p *problems, rt, account string, r *Region) {
	for t, f := range r.Schemas {
		if !typeRE.MatchString(t) {
			p.add(rt+".schemas", "%q is not a resource type", t)
		}
		if f == nil {
			p.add(rt+".schemas", "%s: null facts", t)
		}
	}
	for a, key := range r.KMSAliases {
		if !kmsAliasRE.MatchString(a) {
			p.add(rt+".kmsAliases", "%q is not an alias name (alias/...)", a)
		}
		if key == "" {
			p.add(rt+".kmsAliases", "%s: no target key id", a)
		}
	}
	for i, g := range r.DefaultSecurityGroups {
		if !sgIDRE.MatchString(g) {
			p.add(fmt.Sprintf("%s.defaultSecurityGroups[%d]", rt, i), "%q is not a security group id (sg-...)", g)
		}
	}
	names := map[string]bool{}
	for si, s := range r.Stacks {
		st := fmt.Sprintf("%s.stacks[%d]", rt, si)
		if s == nil {
			p.add(st, "null stack")
			continue
		}
		if !stackNameRE.MatchString(s.Name) {
			p.add(st, "stack name %q is not valid (a letter, then letters, digits and hyphens, at most 128)", s.Name)
		}
		if s.Status == "" {
			s.Status = "CREATE_COMPLETE"
		}
		if !stackStatuses[s.Status] {
			p.add(st, "status %q is not a stack status", s.Status)
		}
		if s.Status != "DELETE_COMPLETE" {
			p.once(names, s.Name, st, "a live stack named %s already exists in %s", s.Name, r.Name)
		}
		if s.ID == "" {
			s.ID = StackID(r.Name, account, s.Name)
		}
		if m := stackIDRE.FindStringSubmatch(s.ID); m == nil {
			p.add(st, "id %q is not a stack ARN", s.ID)
		} else if m[1] != r.Name || m[2] != account || m[3] != s.Name {
			p.add(st, "id %s does not match region %s, account %s and name %s", s.ID, r.Name, account, s.Name)
		}
		if strings.TrimSpace(s.TemplateBody) == "" {
			p.add(st, "templateBody is empty")
		} else if t := strings.TrimSpace(s.TemplateBody); strings.HasPrefix(t, "{") && !json.Valid([]byte(t)) {
			p.add(st, "templateBody starts like JSON but is not valid JSON")
		}
		logical := map[string]bool{}
		for i, res := range s.Resources {
			at := fmt.Sprintf("%s.resources[%d]", st, i)
			if res == nil {
				p.add(at, "null resource")
				continue
			}
			if res.LogicalID == "" {
				p.add(at, "logicalId is empty")
			}
			p.once(logical, res.LogicalID, at, "logical id %s appears twice in stack %s", res.LogicalID, s.Name)
			if res.Status == "" {
				res.Status = "CREATE_COMPLETE"
			}
			normalizeResource(p, at, res)
		}
		for _, o := range s.Outputs {
			if o.Key == "" {
				p.add(st, "an output has no key")
			}
		}
	}
	linkNested(p, rt, r)
	for i, res := range r.Resources {
		at := fmt.Sprintf("%s.resources[%d]", rt, i)
		if res == nil {
			p.add(at, "null resource")
			continue
		}
		if res.LogicalID != "" {
			p.add(at, "a live-only resource has no logical id (it belongs to no stack)")
		}
		if res.CCID() == "" {
			p.add(at, "a live-only resource needs an identifier or physicalId")
		}
		normalizeResource(p, at, res)
	}
}

func normalizeResource(p *problems, at string, res *Resource) {
	if !typeRE.MatchString(res.Type) {
		p.add(at, "type %q is not a resource type", res.Type)
	}
	if len(res.Properties) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, res.Properties); err != nil {
			p.add(at, "properties are not valid JSON: %v", err)
			return
		}
		if buf.Len() == 0 || buf.Bytes()[0] != '{' {
			p.add(at, "properties must be a JSON object")
			return
		}
		res.Properties = buf.Bytes()
	}
}

// checkIdentifiers reports two live resources of one type sharing a Cloud
// Control identifier in the same account scope.
func (w *World) checkIdentifiers(p *problems) {
	seen := map[rkey]string{}
	for _, a := range w.Accounts {
		if a == nil {
			continue
		}
		for _, r := range a.Regions {
			if r == nil {
				continue
			}
			visit := func(where string, res *Resource) {
				if res == nil || res.Deleted || res.CCID() == "" || IsCustom(res.Type) {
					return
				}
				k := keyFor(a.ID, r.Name, res.Type, res.CCID())
				if prev, ok := seen[k]; ok {
					p.add(where, "%s %q is already used by %s", res.Type, res.CCID(), prev)
					return
				}
				seen[k] = where
			}
			for _, s := range r.Stacks {
				if s == nil || s.Status == "DELETE_COMPLETE" {
					continue
				}
				for _, res := range s.Resources {
					if res != nil {
						visit(fmt.Sprintf("account %s %s stack %s resource %s", a.ID, r.Name, s.Name, res.LogicalID), res)
					}
				}
			}
			for i, res := range r.Resources {
				visit(fmt.Sprintf("account %s %s live-only resource %d", a.ID, r.Name, i), res)
			}
		}
	}
}

// StackID returns a deterministic stack ARN for a stack name.
func StackID(region, account, name string) string {
	sum := sha256.Sum256([]byte(region + "/" + account + "/" + name))
	h := hex.EncodeToString(sum[:16])
	return fmt.Sprintf("arn:aws:cloudformation:%s:%s:stack/%s/%s-%s-%s-%s-%s",
		region, account, name, h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}

func IsCustom(t string) bool {
	return strings.HasPrefix(t, "Custom::") || t == "AWS::CloudFormation::CustomResource"
}

// globalPrefixes are type prefixes whose resources are not regional.
var globalPrefixes = []string{"AWS::IAM::", "AWS::CloudFront::", "AWS::Route53::", "AWS::Organizations::", "AWS::GlobalAccelerator::"}

func isGlobal(t string) bool {
	for _, p := range globalPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

package live

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	jsonpatch "github.com/evanphx/json-patch/v5"
)

// The write-side interfaces, shaped like the SDK client methods.

type ccWriteAPI interface {
	cloudControlAPI
	UpdateResource(ctx context.Context, in *cloudcontrol.UpdateResourceInput, optFns ...func(*cloudcontrol.Options)) (*cloudcontrol.UpdateResourceOutput, error)
	DeleteResource(ctx context.Context, in *cloudcontrol.DeleteResourceInput, optFns ...func(*cloudcontrol.Options)) (*cloudcontrol.DeleteResourceOutput, error)
	GetResourceRequestStatus(ctx context.Context, in *cloudcontrol.GetResourceRequestStatusInput, optFns ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceRequestStatusOutput, error)
}

type s3WriteAPI interface {
	PutBucketPolicy(ctx context.Context, in *s3.PutBucketPolicyInput, optFns ...func(*s3.Options)) (*s3.PutBucketPolicyOutput, error)
	DeleteBucketPolicy(ctx context.Context, in *s3.DeleteBucketPolicyInput, optFns ...func(*s3.Options)) (*s3.DeleteBucketPolicyOutput, error)
}

type sqsWriteAPI interface {
	SetQueueAttributes(ctx context.Context, in *sqs.SetQueueAttributesInput, optFns ...func(*sqs.Options)) (*sqs.SetQueueAttributesOutput, error)
}

type snsWriteAPI interface {
	SetTopicAttributes(ctx context.Context, in *sns.SetTopicAttributesInput, optFns ...func(*sns.Options)) (*sns.SetTopicAttributesOutput, error)
}

type iamWriteAPI interface {
	ListRolePolicies(ctx context.Context, in *iam.ListRolePoliciesInput, optFns ...func(*iam.Options)) (*iam.ListRolePoliciesOutput, error)
	GetRolePolicy(ctx context.Context, in *iam.GetRolePolicyInput, optFns ...func(*iam.Options)) (*iam.GetRolePolicyOutput, error)
	PutRolePolicy(ctx context.Context, in *iam.PutRolePolicyInput, optFns ...func(*iam.Options)) (*iam.PutRolePolicyOutput, error)
	DeleteRolePolicy(ctx context.Context, in *iam.DeleteRolePolicyInput, optFns ...func(*iam.Options)) (*iam.DeleteRolePolicyOutput, error)
	PutUserPolicy(ctx context.Context, in *iam.PutUserPolicyInput, optFns ...func(*iam.Options)) (*iam.PutUserPolicyOutput, error)
	DeleteUserPolicy(ctx context.Context, in *iam.DeleteUserPolicyInput, optFns ...func(*iam.Options)) (*iam.DeleteUserPolicyOutput, error)
	PutGroupPolicy(ctx context.Context, in *iam.PutGroupPolicyInput, optFns ...func(*iam.Options)) (*iam.PutGroupPolicyOutput, error)
	DeleteGroupPolicy(ctx context.Context, in *iam.DeleteGroupPolicyInput, optFns ...func(*iam.Options)) (*iam.DeleteGroupPolicyOutput, error)
	ListPolicyVersions(ctx context.Context, in *iam.ListPolicyVersionsInput, optFns ...func(*iam.Options)) (*iam.ListPolicyVersionsOutput, error)
	CreatePolicyVersion(ctx context.Context, in *iam.CreatePolicyVersionInput, optFns ...func(*iam.Options)) (*iam.CreatePolicyVersionOutput, error)
	DeletePolicyVersion(ctx context.Context, in *iam.DeletePolicyVersionInput, optFns ...func(*iam.Options)) (*iam.DeletePolicyVersionOutput, error)
	AttachRolePolicy(ctx context.Context, in *iam.AttachRolePolicyInput, optFns ...func(*iam.Options)) (*iam.AttachRolePolicyOutput, error)
	DetachRolePolicy(ctx context.Context, in *iam.DetachRolePolicyInput, optFns ...func(*iam.Options)) (*iam.DetachRolePolicyOutput, error)
	AttachUserPolicy(ctx context.Context, in *iam.AttachUserPolicyInput, optFns ...func(*iam.Options)) (*iam.AttachUserPolicyOutput, error)
	DetachUserPolicy(ctx context.Context, in *iam.DetachUserPolicyInput, optFns ...func(*iam.Options)) (*iam.DetachUserPolicyOutput, error)
	AttachGroupPolicy(ctx context.Context, in *iam.AttachGroupPolicyInput, optFns ...func(*iam.Options)) (*iam.AttachGroupPolicyOutput, error)
	DetachGroupPolicy(ctx context.Context, in *iam.DetachGroupPolicyInput, optFns ...func(*iam.Options)) (*iam.DetachGroupPolicyOutput, error)
	ListAttachedRolePolicies(ctx context.Context, in *iam.ListAttachedRolePoliciesInput, optFns ...func(*iam.Options)) (*iam.ListAttachedRolePoliciesOutput, error)
	ListAttachedUserPolicies(ctx context.Context, in *iam.ListAttachedUserPoliciesInput, optFns ...func(*iam.Options)) (*iam.ListAttachedUserPoliciesOutput, error)
	ListAttachedGroupPolicies(ctx context.Context, in *iam.ListAttachedGroupPoliciesInput, optFns ...func(*iam.Options)) (*iam.ListAttachedGroupPoliciesOutput, error)
}

type lambdaWriteAPI interface {
	AddPermission(ctx context.Context, in *lambda.AddPermissionInput, optFns ...func(*lambda.Options)) (*lambda.AddPermissionOutput, error)
	RemovePermission(ctx context.Context, in *lambda.RemovePermissionInput, optFns ...func(*lambda.Options)) (*lambda.RemovePermissionOutput, error)
}

var (
	_ ccWriteAPI     = (*cloudcontrol.Client)(nil)
	_ s3WriteAPI     = (*s3.Client)(nil)
	_ sqsWriteAPI    = (*sqs.Client)(nil)
	_ snsWriteAPI    = (*sns.Client)(nil)
	_ iamWriteAPI    = (*iam.Client)(nil)
	_ lambdaWriteAPI = (*lambda.Client)(nil)
)

// Writers holds the clients the writers call, for one account and region,
// and the readers' clients (a writer reads the current model first). A nil
// field makes the writers that need it fail with a reason.
type Writers struct {
	Read         *Clients
	CloudControl ccWriteAPI
	S3           s3WriteAPI
	SQS          sqsWriteAPI
	SNS          snsWriteAPI
	IAM          iamWriteAPI
	Lambda       lambdaWriteAPI
	EC2          ec2WriteAPI
	Route53      route53WriteAPI
	ELBv2        elbv2WriteAPI
	// Wait makes a writer whose change completes asynchronously after the
	// call (a Route 53 change) poll it until it has (the CLI sets it with
	// --wait); Cloud Control requests are always polled to their end.
	Wait bool
	// Poll is the wait between two GetResourceRequestStatus calls
	// (DefaultPoll when 0); Sleep waits (a timer when nil).
	Poll  time.Duration
	Sleep func(ctx context.Context, d time.Duration) error

	// pending are the Route 53 changes whose polling failed, by target.
	pending sync.Map
}

// DefaultPoll is the default wait between two Cloud Control status reads.
const DefaultPoll = time.Second

// NewWriters builds every write client from cfg, beside read.
func NewWriters(cfg aws.Config, read *Clients) *Writers {
	custom := cfg.BaseEndpoint != nil && *cfg.BaseEndpoint != ""
	return &Writers{
		Read:         read,
		CloudControl: cloudcontrol.NewFromConfig(cfg),
		S3: s3.NewFromConfig(cfg, func(o *s3.Options) {
			if custom {
				o.UsePathStyle = true
			}
		}),
		SQS:     sqs.NewFromConfig(cfg),
		SNS:     sns.NewFromConfig(cfg),
		IAM:     iam.NewFromConfig(cfg),
		Lambda:  lambda.NewFromConfig(cfg),
		EC2:     ec2.NewFromConfig(cfg),
		Route53: route53.NewFromConfig(cfg),
		ELBv2:   elbv2.NewFromConfig(cfg),
	}
}

// Target names the resource one write addresses.
type Target struct {
	Type       string
	LogicalID  string
	PhysicalID string
	// Identifier is the Cloud Control identifier (or a child's identity).
	Identifier string
	// Declared holds the resolved template properties (policy targets,
	// a permission's function).
	Declared map[string]any
}

func (t Target) request() Request {
	return Request{Type: t.Type, LogicalID: t.LogicalID, PhysicalID: t.PhysicalID, Declared: t.Declared}
}

// sdkWriter writes ops (an RFC 6902 patch against the type's projected
// model) through the service's own API; prior is the finding's live value
// (property writers write per entry from it).
type sdkWriter func(ctx context.Context, w *Writers, t Target, ops []byte, prior any) error

// deleter removes an added child; model is its live model (may be nil).
type deleter func(ctx context.Context, w *Writers, typ, id string, model map[string]any) error

type writerEntry struct {
	call  string
	props []string
	write sdkWriter
}

type deleterEntry struct {
	call string
	del  deleter
}

// writers is the one registration table of SDK writers: types Cloud
// Control cannot write, with the properties each writes in place.
func writers() map[string]writerEntry {
	return map[string]writerEntry{
		"AWS::S3::BucketPolicy":   {"s3:PutBucketPolicy", []string{"PolicyDocument"}, writeBucketPolicy},
		"AWS::SQS::QueuePolicy":   {"sqs:SetQueueAttributes", []string{"PolicyDocument", "Queues"}, writeQueuePolicy},
		"AWS::SNS::TopicPolicy":   {"sns:SetTopicAttributes", []string{"PolicyDocument", "Topics"}, writeTopicPolicy},
		"AWS::IAM::Policy":        {"iam:PutRolePolicy", []string{"PolicyDocument", "Roles", "Users", "Groups"}, writeInlinePolicy},
		"AWS::IAM::ManagedPolicy": {"iam:CreatePolicyVersion", []string{"PolicyDocument", "Roles", "Users", "Groups"}, writeManagedPolicy},
		"AWS::Lambda::Permission": {"lambda:AddPermission", []string{"Action", "Principal", "SourceArn", "SourceAccount", "PrincipalOrgID", "FunctionUrlAuthType", "EventSourceToken"}, writePermission},

		"AWS::EC2::NetworkAclEntry": {"ec2:ReplaceNetworkAclEntry", []string{"Protocol", "RuleAction", "CidrBlock", "Ipv6CidrBlock", "PortRange", "Icmp"}, writeNetworkAclEntry},

		"AWS::Route53::RecordSet":      {"route53:ChangeResourceRecordSets", recordDataProps, writeRecordSet},
		"AWS::Route53::RecordSetGroup": {"route53:ChangeResourceRecordSets", []string{"RecordSets"}, writeRecordSetGroup},
	}
}

// propWriters is the one registration table of property-scoped writers:
// a top-level property of a Cloud Control type that must bypass it.
func propWriters() map[string]map[string]writerEntry {
	return map[string]map[string]writerEntry{
		// A Cloud Control remove of /Policies would also wipe the entries
		// the stack's own AWS::IAM::Policy resources put there (classify
		// filters them out of the finding): write per entry instead.
		"AWS::IAM::Role": {
			"Policies":          {"iam:PutRolePolicy", nil, writeRolePolicies},
			"ManagedPolicyArns": {"iam:Attach/DetachRolePolicy", nil, writeAttachedPolicies},
		},
		// Managed-policy attachments, per entry: another resource of the
		// stack (a managed policy's Roles) may own some of them.
		"AWS::IAM::User":  {"ManagedPolicyArns": {"iam:Attach/DetachUserPolicy", nil, writeAttachedPolicies}},
		"AWS::IAM::Group": {"ManagedPolicyArns": {"iam:Attach/DetachGroupPolicy", nil, writeAttachedPolicies}},
		// An ELB attribute bag is written per key (the template declares
		// a subset of the live bag; one call takes at most 20 keys).
		"AWS::ElasticLoadBalancingV2::LoadBalancer": {"LoadBalancerAttributes": {"elasticloadbalancing:ModifyLoadBalancerAttributes", nil, writeAttributeBag}},
		"AWS::ElasticLoadBalancingV2::TargetGroup":  {"TargetGroupAttributes": {"elasticloadbalancing:ModifyTargetGroupAttributes", nil, writeAttributeBag}},
		"AWS::ElasticLoadBalancingV2::Listener":     {"ListenerAttributes": {"elasticloadbalancing:ModifyListenerAttributes", nil, writeAttributeBag}},
	}
}

// deleters is the one registration table of the SDK deletes of added
// children; every other child type is deleted through Cloud Control.
func deleters() map[string]deleterEntry {
	return map[string]deleterEntry{
		"AWS::S3::BucketPolicy":   {"s3:DeleteBucketPolicy", deleteBucketPolicy},
		"AWS::SQS::QueuePolicy":   {"sqs:SetQueueAttributes", deleteQueuePolicy},
		"AWS::SNS::TopicPolicy":   {"sns:SetTopicAttributes", deleteTopicPolicy},
		"AWS::Lambda::Permission": {"lambda:RemovePermission", deletePermission},
	}
}

// Writer reports whether typ has an SDK writer: its call and the
// properties it writes in place.
func Writer(typ string) (call string, props []string, ok bool) {
	e, ok := writers()[typ]
	return e.call, e.props, ok
}

// writerCalls names, per type, the calls of the properties an SDK writer
// writes with another call than its own.
func writerCalls() map[string]map[string]string {
	return map[string]map[string]string{
		"AWS::IAM::ManagedPolicy": {"Roles": "iam:Attach/DetachRolePolicy", "Users": "iam:Attach/DetachUserPolicy", "Groups": "iam:Attach/DetachGroupPolicy"},
	}
}

// WriterCall names the call typ's SDK writer writes its property prop
// with.
func WriterCall(typ, prop string) string {
	if c, ok := writerCalls()[typ][prop]; ok {
		return c
	}
	return writers()[typ].call
}

// PropWriter reports whether the top-level property prop of typ is
// written by a property-scoped SDK writer.
func PropWriter(typ, prop string) (call string, ok bool) {
	e, ok := propWriters()[typ][prop]
	return e.call, ok
}

// Deleter names the call that deletes an added child of type typ.
func Deleter(typ string) string {
	if e, ok := deleters()[typ]; ok {
		return e.call
	}
	return "cloudcontrol:DeleteResource"
}

// WriteSDK writes ops through t's SDK writer (a property writer when the
// ops touch one property that has one).
func (w *Writers) WriteSDK(ctx context.Context, t Target, ops []byte, prior any) error {
	var list []struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(ops, &list); err != nil || len(list) == 0 {
		return fmt.Errorf("write %s %s: the patch is not a non-empty RFC 6902 list", t.Type, t.LogicalID)
	}
	top := strings.SplitN(strings.TrimPrefix(list[0].Path, "/"), "/", 2)[0]
	if e, ok := propWriters()[t.Type][top]; ok {
		return e.write(ctx, w, t, ops, prior)
	}
	e, ok := writers()[t.Type]
	if !ok {
		return fmt.Errorf("write %s: no SDK writer", t.Type)
	}
	return e.write(ctx, w, t, ops, prior)
}

// DeleteChild deletes an added child: through its SDK deleter, else Cloud
// Control DeleteResource. A child already gone is deleted.
func (w *Writers) DeleteChild(ctx context.Context, typ, id string, model map[string]any, token string) error {
	if e, ok := deleters()[typ]; ok {
		err := e.del(ctx, w, typ, id, model)
		if isNotFound(err) {
			return nil
		}
		return err
	}
	return w.DeleteCloudControl(ctx, typ, id, token)
}

// patched reads t's projected model through its reader and returns it
// before and after ops (ops already satisfied are no-ops).
func (w *Writers) patched(ctx context.Context, t Target, ops []byte) (before, after map[string]any, err error) {
	if w.Read == nil {
		return nil, nil, skip("no read clients")
	}
	read, ok := overrides()[t.Type]
	if !ok {
		return nil, nil, fmt.Errorf("write %s: no reader", t.Type)
	}
	before, err = read(ctx, w.Read, t.request())
	if isNotFound(err) {
		before, err = map[string]any{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	after, err = ApplyPatch(before, ops)
	return before, after, err
}

// ApplyPatch applies an RFC 6902 patch to model the way a revert means
// it: idempotently. A remove of an absent path and an add or replace of
// an equal value are no-ops, a replace of an absent path is an add, and
// missing parent objects are created.
func ApplyPatch(model map[string]any, ops []byte) (map[string]any, error) {
	eff, err := EffectiveOps(model, ops)
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(model)
	if err != nil {
		return nil, err
	}
	if len(eff) > 0 {
		p, err := jsonpatch.DecodePatch(eff)
		if err != nil {
			return nil, fmt.Errorf("patch: %w", err)
		}
		if doc, err = p.Apply(doc); err != nil {
			return nil, fmt.Errorf("patch: %w", err)
		}
	}
	var out map[string]any
	if err := json.Unmarshal(doc, &out); err != nil {
		return nil, fmt.Errorf("patch: the patched model is not an object")
	}
	return out, nil
}

// EffectiveOps returns the part of ops that still changes model, as an
// RFC 6902 list (empty: model is already at the target); see ApplyPatch.
func EffectiveOps(model map[string]any, ops []byte) ([]byte, error) {
	var list []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value,omitempty"`
	}
	if err := json.Unmarshal(ops, &list); err != nil {
		return nil, fmt.Errorf("patch: %w", err)
	}
	var out []map[string]any
	for _, o := range list {
		segs := pointerSegments(o.Path)
		cur, found := at(model, segs)
		switch o.Op {
		case "remove":
			if found {
				out = append(out, map[string]any{"op": "remove", "path": o.Path})
			}
		case "add", "replace":
			var v any
			if err := json.Unmarshal(o.Value, &v); err != nil {
				return nil, fmt.Errorf("patch %s %s: %w", o.Op, o.Path, err)
			}
			if found && reflect.DeepEqual(cur, v) {
				continue
			}
			if found {
				out = append(out, map[string]any{"op": "replace", "path": o.Path, "value": v})
				continue
			}
			// Create the missing parents: add at the first absent level.
			i := 1
			for ; i < len(segs); i++ {
				if _, ok := at(model, segs[:i]); !ok {
					break
				}
			}
			for j := len(segs) - 1; j >= i; j-- {
				v = map[string]any{segs[j]: v}
			}
			out = append(out, map[string]any{"op": "add", "path": joinPointer(segs[:i]), "value": v})
		default:
			return nil, fmt.Errorf("patch: op %q is not supported", o.Op)
		}
	}
	if len(out) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal(out)
}

func pointerSegments(p string) []string {
	if p == "" || p == "/" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

func joinPointer(segs []string) string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(out, "/")
}

// at returns the value at segs in v.
func at(v any, segs []string) (any, bool) {
	for _, s := range segs {
		switch t := v.(type) {
		case map[string]any:
			e, ok := t[s]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			n := -1
			if _, err := fmt.Sscanf(s, "%d", &n); err != nil || n < 0 || n >= len(t) || fmt.Sprint(n) != s {
				return nil, false
			}
			v = t[n]
		default:
			return nil, false
		}
	}
	return v, true
}

func (w *Writers) sleep(ctx context.Context, d time.Duration) error {
	if w.Sleep != nil {
		return w.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// CloudControlID returns the Cloud Control identifier of r: its physical
// id, or what the type's identifier adapter builds from it (the identifier
// the read path uses, which an UpdateResource must address too).
func CloudControlID(r Request) (string, error) { return identifier(r, noScope) }

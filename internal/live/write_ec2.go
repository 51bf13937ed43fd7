package live

import (
	"context"
	"reflect"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

type ec2WriteAPI interface {
	ReplaceNetworkAclEntry(ctx context.Context, in *ec2.ReplaceNetworkAclEntryInput, optFns ...func(*ec2.Options)) (*ec2.ReplaceNetworkAclEntryOutput, error)
}

var _ ec2WriteAPI = (*ec2.Client)(nil)

// writeNetworkAclEntry rewrites an AWS::EC2::NetworkAclEntry in place with
// ReplaceNetworkAclEntry (Cloud Control cannot read the type, so cannot
// update it): the entry of the declared ACL, number and direction gets the
// patched model's protocol, action, CIDR block, ports and ICMP code.
func writeNetworkAclEntry(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.EC2 == nil {
		return skip("no EC2 client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(before, after) {
		return nil
	}
	acl, err := declaredString(t.Declared, "NetworkAclId")
	if err != nil {
		return err
	}
	rule, err := declaredInt(t.Declared, "RuleNumber")
	if err != nil {
		return err
	}
	egress, err := declaredBool(t.Declared, "Egress")
	if err != nil {
		return err
	}
	in := &ec2.ReplaceNetworkAclEntryInput{
		NetworkAclId: &acl, RuleNumber: aws.Int32(int32(rule)), Egress: aws.Bool(egress),
		RuleAction: ec2types.RuleAction(modelString(after, "RuleAction")),
	}
	switch p := after["Protocol"].(type) {
	case float64:
		in.Protocol = aws.String(strconv.Itoa(int(p)))
	case string:
		in.Protocol = aws.String(p)
	}
	if v := modelString(after, "CidrBlock"); v != "" {
		in.CidrBlock = &v
	}
	if v := modelString(after, "Ipv6CidrBlock"); v != "" {
		in.Ipv6CidrBlock = &v
	}
	if m, ok := after["PortRange"].(map[string]any); ok {
		in.PortRange = &ec2types.PortRange{From: modelInt32(m, "From"), To: modelInt32(m, "To")}
	}
	if m, ok := after["Icmp"].(map[string]any); ok {
		in.IcmpTypeCode = &ec2types.IcmpTypeCode{Code: modelInt32(m, "Code"), Type: modelInt32(m, "Type")}
	}
	_, err = w.EC2.ReplaceNetworkAclEntry(ctx, in)
	return err
}

func modelString(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func modelInt32(m map[string]any, k string) *int32 {
	if f, ok := m[k].(float64); ok {
		return aws.Int32(int32(f))
	}
	return nil
}

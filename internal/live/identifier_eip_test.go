package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

// TestEIPIdentifier: an EIP's Cloud Control identifier is
// <PublicIp>|<AllocationId>; without clients a bare public IP fails closed,
// with them the allocation id is asked of EC2 (the sandbox's
// DescribeAddresses).
func TestEIPIdentifier(t *testing.T) {
	_, url := serve(t, worldOf(liveOnly("AWS::EC2::EIP", "52.4.97.166", `{"Domain":"vpc","PublicIp":"52.4.97.166","AllocationId":"eipalloc-0aaaaaaaaaaaaaaaa"}`)))
	c := live.NewClients(config(url))
	if id, err := live.Identifier("AWS::EC2::EIP", "52.4.97.166|eipalloc-0bbbbbbbbbbbbbbbb", nil); err != nil || id != "52.4.97.166|eipalloc-0bbbbbbbbbbbbbbbb" {
		t.Errorf("compound id: %q, %v", id, err)
	}
	if id, err := live.Identifier("AWS::EC2::EIP", "52.4.97.166", nil); err == nil || !strings.Contains(err.Error(), "DescribeAddresses") {
		t.Errorf("bare public IP without clients: %q, %v, want a refusal naming DescribeAddresses", id, err)
	}
	if id, err := c.Identifier(ctx(t), "AWS::EC2::EIP", "52.4.97.166", map[string]any{"Domain": "vpc"}); err != nil || id != "52.4.97.166|eipalloc-0aaaaaaaaaaaaaaaa" {
		t.Errorf("through EC2: %q, %v", id, err)
	}
	if id, err := c.Identifier(ctx(t), "AWS::EC2::EIP", "198.51.100.9", nil); err == nil {
		t.Errorf("an address that does not exist: %q, want an error", id)
	}
	if id, err := c.Identifier(ctx(t), "AWS::SQS::Queue", "https://sqs/q", nil); err != nil || id != "https://sqs/q" {
		t.Errorf("a type without an adapter: %q, %v", id, err)
	}
}

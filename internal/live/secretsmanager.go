package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

// The Secrets Manager family: the out-of-band resource policy of a declared
// AWS::SecretsManager::Secret.

type secretsAPI interface {
	GetResourcePolicy(ctx context.Context, in *secretsmanager.GetResourcePolicyInput, optFns ...func(*secretsmanager.Options)) (*secretsmanager.GetResourcePolicyOutput, error)
}

var _ secretsAPI = (*secretsmanager.Client)(nil)

// outOfBandSecretPolicy reports a secret's resource policy when the stack
// declares no AWS::SecretsManager::ResourcePolicy on the secret (physical
// id: its ARN). A new secret has none, so a present one was set. Identity:
// the secret ARN (the policy's Cloud Control identifier).
func outOfBandSecretPolicy(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	arn := parent.PhysicalID
	if declaresPolicyOn(stack, arn, map[string]string{"AWS::SecretsManager::ResourcePolicy": "SecretId"}) {
		return nil, nil
	}
	if c.Secrets == nil {
		return nil, skip("no Secrets Manager client")
	}
	out, err := c.Secrets.GetResourcePolicy(ctx, &secretsmanager.GetResourcePolicyInput{SecretId: &arn})
	if isNotFound(err) {
		return nil, nil // the secret itself is reported deleted
	}
	if err != nil {
		return nil, err
	}
	if deref(out.ResourcePolicy) == "" {
		return nil, nil
	}
	doc, err := parsePolicy(*out.ResourcePolicy)
	if err != nil {
		return nil, err
	}
	return []candidate{{typ: "AWS::SecretsManager::ResourcePolicy", id: arn, model: map[string]any{
		"SecretId":       arn,
		"ResourcePolicy": doc,
	}}}, nil
}

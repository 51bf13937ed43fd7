package secretsmanager

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Secrets Manager (JSON 1.1): a secret's
// resource policy, from the world's AWS::SecretsManager::Secret models and
// the AWS::SecretsManager::ResourcePolicy models whose SecretId names one
// (by ARN or name).
func Service() *wire.Service {
	return wire.JSON("secretsmanager", "1.1", "secretsmanager.", wire.Ops{
		"GetResourcePolicy": wire.Read(smGetResourcePolicy),
	})
}

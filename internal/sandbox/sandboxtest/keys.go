package sandboxtest

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sdkhttp"
)

// Config is an aws-sdk-go-v2 configuration for the sandbox at url signing
// with key in region (the secret is not checked). key must be one the
// world maps (Key), a session key its STS issued, or a key a test expects
// refused: the sandbox answers any other as AWS answers a key it does not
// know. It sends through sdkhttp, as realdrift's own clients do. Clients of moto, DynamoDB Local or a test's own stand-in, which
// check no key, do not need it.
func Config(url, key, region string) aws.Config {
	return aws.Config{
		Region:       region,
		Credentials:  credentials.NewStaticCredentialsProvider(key, "sandbox-secret", ""),
		BaseEndpoint: aws.String(url),
		HTTPClient:   sdkhttp.New(),
	}
}

// Key is the first access key w maps to account (a user's, the root's or
// a role session's). It fails the test when the account has none.
func Key(t testing.TB, w *sandbox.World, account string) string {
	t.Helper()
	for _, a := range w.Accounts {
		if a.ID == account && len(a.AccessKeys) > 0 {
			return a.AccessKeys[0].ID
		}
	}
	t.Fatalf("sandboxtest.Key: the world maps no access key to account %s", account)
	return ""
}

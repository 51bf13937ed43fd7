package scan_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/scan"
)

func TestUsesManagedAlias(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"bare alias", "alias/aws/s3", true},
		{"alias arn", "arn:aws:kms:us-east-1:111111111111:alias/aws/sqs", true},
		{"nested in a list in a map", map[string]any{"Enc": []any{"x", map[string]any{"KmsKeyId": "alias/aws/sns"}}}, true},
		{"customer alias", "alias/mine", false},
		{"key id", "1234abcd-12ab-34cd-56ef-1234567890ab", false},
		{"not a string", 42.0, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scan.UsesManagedAlias(tt.v); got != tt.want {
				t.Errorf("UsesManagedAlias(%#v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
}

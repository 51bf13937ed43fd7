package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	glueConn = `{"CatalogId":"111111111111","ConnectionInput":{"Name":"warehouse","Description":"jdbc","ConnectionType":"JDBC","MatchCriteria":["prod"],` +
		`"ConnectionProperties":{"JDBC_CONNECTION_URL":"jdbc:postgresql://db:5432/app","USERNAME":"etl"},"PhysicalConnectionRequirements":{"SubnetId":"subnet-0aaaaaaaaaaaaaaaa","SecurityGroupIdList":["sg-0aaaaaaaaaaaaaaaa"],"AvailabilityZone":"us-east-1a"}}}`
	glueSec = `{"Name":"etl-sec","EncryptionConfiguration":{"S3Encryptions":[{"S3EncryptionMode":"SSE-KMS","KmsKeyArn":"arn:aws:kms:us-east-1:111111111111:key/k"}],` +
		`"CloudWatchEncryption":{"CloudWatchEncryptionMode":"DISABLED"},"JobBookmarksEncryption":{"JobBookmarksEncryptionMode":"DISABLED"}}}`
)

func TestGlueConnectionAndSecurityConfiguration(t *testing.T) {
	// The world's connection holds a password: it must never be read.
	withPassword := strings.Replace(glueConn, `"USERNAME":"etl"`, `"USERNAME":"etl","PASSWORD":"hunter2"`, 1)
	srv, url := serve(t, worldOf(
		liveOnly("AWS::Glue::Connection", "warehouse", withPassword),
		liveOnly("AWS::Glue::SecurityConfiguration", "etl-sec", glueSec),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::Glue::Connection", "warehouse", glueConn, "ConnectionInput.Description", `"other"`},
		{"AWS::Glue::SecurityConfiguration", "etl-sec", glueSec, "EncryptionConfiguration.CloudWatchEncryption.CloudWatchEncryptionMode", `"SSE-KMS"`},
	} {
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Found || got.Route != live.RouteOverride {
			t.Fatalf("%s: %+v", tc.typ, got)
		}
		if diff := cmp.Diff(got.Model, declaredOf(t, tc.model)); diff != "" {
			t.Errorf("%s model (-got +want):\n%s", tc.typ, diff)
		}
		if b, _ := json.Marshal(got.Model); strings.Contains(string(b), "hunter2") {
			t.Fatalf("%s: the password was read", tc.typ)
		}
		if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
			t.Errorf("%s: clean read classified as %+v", tc.typ, fs)
		}
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: tc.typ, Identifier: tc.id, Path: tc.path, Value: json.RawMessage(tc.value)}); err != nil {
			t.Fatal(err)
		}
		fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
		if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, strings.Split(tc.path, ".")[0]) {
			t.Errorf("%s changed out of band: %+v, want one declared finding at %s", tc.typ, fs, tc.path)
		}
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: "gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
}

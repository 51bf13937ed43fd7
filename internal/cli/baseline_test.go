package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
)

// TestBaselinePushPull moves a state directory's baseline and ignore rules
// into a DynamoDB Local table the service would read, and back into an
// empty directory: the documents arrive byte for byte; a second push
// replaces the table's copy.
func TestBaselinePushPull(t *testing.T) {
	var local storetest.DynamoLocal
	t.Cleanup(local.Stop)
	endpoint := local.Endpoint(t, "baseline push|pull")
	ctx := t.Context()
	db := dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials:                     credentials.NewStaticCredentialsProvider("local", "local", ""),
		DisableValidateResponseChecksum: true,
	})
	table := fmt.Sprintf("realdrift-cli-%d", time.Now().UnixNano())
	if err := store.CreateTable(ctx, db, table); err != nil {
		t.Fatal(err)
	}
	ref := drift.StackRef{Name: "OrdersService", Account: "111111111111", Region: "us-east-1"}
	src := t.TempDir()
	doc := []byte(`{"stack":"OrdersService","resources":{}}` + "\n")
	rules := []byte("ignore:\n  - path: '*.DisplayName'\n")
	if err := os.MkdirAll(filepath.Join(src, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "baselines", "OrdersService.111111111111.us-east-1.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "ignore.yaml"), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "HOME": t.TempDir()}
	run := func(args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := cli.Run(ctx, cli.IO{Stdout: &out, Stderr: &errs, Getenv: func(k string) string { return env[k] }}, args)
		return code, out.String() + errs.String()
	}
	storeURL := "dynamodb://" + table + "?region=us-east-1"

	if code, out := run("baseline", "push", "--store", storeURL, "--endpoint-url", endpoint, "--state-dir", src); code != 0 || !strings.Contains(out, "2 moved, 0 failed") {
		t.Fatalf("push: exit %d\n%s", code, out)
	}
	tbl := store.NewDynamo(db, table)
	if got, _, err := tbl.GetBaseline(ctx, ref); err != nil || !bytes.Equal(got, doc) {
		t.Errorf("table baseline %q, %v; want the file's", got, err)
	}
	if got, _, err := tbl.GetIgnoreRules(ctx, ""); err != nil || !bytes.Equal(got, rules) {
		t.Errorf("table ignore rules %q, %v; want ignore.yaml", got, err)
	}

	changed := []byte(`{"stack":"OrdersService","resources":{"Queue":{}}}` + "\n")
	if err := os.WriteFile(filepath.Join(src, "baselines", "OrdersService.111111111111.us-east-1.json"), changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := run("baseline", "push", "--store", storeURL, "--endpoint-url", endpoint, "--state-dir", src, "OrdersService.111111111111.us-east-1"); code != 0 {
		t.Fatalf("second push: exit %d\n%s", code, out)
	}
	if got, _, _ := tbl.GetBaseline(ctx, ref); !bytes.Equal(got, changed) {
		t.Errorf("after a second push the table holds %q, want the changed file", got)
	}

	dst := t.TempDir()
	if code, out := run("baseline", "pull", "--store", storeURL, "--endpoint-url", endpoint, "--state-dir", dst, "OrdersService.111111111111.us-east-1"); code != 0 {
		t.Fatalf("pull: exit %d\n%s", code, out)
	}
	if got, err := os.ReadFile(filepath.Join(dst, "baselines", "OrdersService.111111111111.us-east-1.json")); err != nil || !bytes.Equal(got, changed) {
		t.Errorf("pulled baseline %q, %v", got, err)
	}
	if got, err := os.ReadFile(filepath.Join(dst, "ignore.yaml")); err != nil || !bytes.Equal(got, rules) {
		t.Errorf("pulled ignore.yaml %q, %v", got, err)
	}
	if code, out := run("baseline", "pull", "--store", storeURL, "--endpoint-url", endpoint, "--state-dir", dst, "Missing.111111111111.us-east-1"); code != 2 || !strings.Contains(out, "no baseline") {
		t.Errorf("pull of a stack the table lacks: exit %d\n%s", code, out)
	}
	for _, bad := range []string{"s3://x", "dynamodb://", "dynamodb://t/x", "dynamodb://t?profile=a"} {
		if code, out := run("baseline", "push", "--store", bad, "--state-dir", src); code != 2 || !strings.Contains(out, "--store") {
			t.Errorf("--store %s: exit %d\n%s", bad, code, out)
		}
	}
}

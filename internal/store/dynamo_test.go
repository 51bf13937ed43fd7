package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
)

// local is DynamoDB Local as found or started by this test binary.
var local storetest.DynamoLocal

var tableSeq atomic.Int64

func TestMain(m *testing.M) {
	code := m.Run()
	local.Stop()
	os.Exit(code)
}

func localClient(t *testing.T) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		BaseEndpoint: aws.String(local.Endpoint(t, "DynamoDB store tests")),
		Region:       "us-east-1",
		// DynamoDB Local wants alphanumeric keys.
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		// DynamoDB Local's error responses carry a wrong CRC32.
		DisableValidateResponseChecksum: true,
	})
}

// newTable creates a fresh table and deletes it when the test ends.
func newTable(t *testing.T, db *dynamodb.Client) string {
	t.Helper()
	name := fmt.Sprintf("realdrift-test-%d-%d", time.Now().UnixNano(), tableSeq.Add(1))
	ctx := deadlinetest.Context(t, time.Minute)
	if err := store.CreateTable(ctx, db, name); err != nil {
		t.Fatalf("create table: %v", err)
	}
	t.Cleanup(func() {
		_, _ = db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	return name
}

func TestDynamoConformance(t *testing.T) {
	db := localClient(t)
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewDynamo(db, newTable(t, db)) })
}

// Versions count up from 1, and a conflict names both versions.
func TestDynamoVersions(t *testing.T) {
	db := localClient(t)
	s := store.NewDynamo(db, newTable(t, db))
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	v1, err := s.PutBaseline(t.Context(), st, []byte("{}"), 0)
	if err != nil || v1 != 1 {
		t.Fatalf("first put: v%d, %v; want v1", v1, err)
	}
	v2, err := s.PutBaseline(t.Context(), st, []byte("{}"), 1)
	if err != nil || v2 != 2 {
		t.Fatalf("second put: v%d, %v; want v2", v2, err)
	}
	_, err = s.PutBaseline(t.Context(), st, []byte("{}"), 1)
	if err == nil || !strings.Contains(err.Error(), "stored version is 2, expected 1") {
		t.Fatalf("stale put: got %v, want a conflict naming versions 2 and 1", err)
	}
}

// Run data and state carry the TTL attribute DynamoDB expires items by;
// baselines and latest findings do not. Large values are chunked, each
// chunk carrying the TTL too.
func TestDynamoTTLAttribute(t *testing.T) {
	db := localClient(t)
	table := newTable(t, db)
	exp := time.Date(2030, 1, 2, 3, 4, 5, 500, time.UTC)
	// The store's clock sits a day before exp, whatever today's date is.
	s := store.NewDynamo(db, table, store.WithClock(func() time.Time { return exp.Add(-24 * time.Hour) }))
	ctx := t.Context()

	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	if d := ttl.TimeToLiveDescription; d == nil || aws.ToString(d.AttributeName) != store.AttrTTL || d.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
		t.Errorf("TTL description %+v, want %q enabled", d, store.AttrTTL)
	}

	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	big := bytes.Repeat([]byte("0123456789"), 100_000) // 1,000,000 bytes
	if err := s.PutState(ctx, "run-1", "live", big, exp); err != nil {
		t.Fatal(err)
	}
	rec := store.RunRecord{RunID: "run-1", Stack: st, StartedAt: exp.Add(-time.Hour), Status: store.RunOK, ExpiresAt: exp}
	if err := s.PutRun(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutBaseline(ctx, st, []byte("{}"), 0); err != nil {
		t.Fatal(err)
	}
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.FormatInt(exp.Unix()+1, 10) // rounded up
	chunks := 0
	for _, it := range out.Items {
		pk := it[store.AttrPK].(*types.AttributeValueMemberS).Value
		sk := it[store.AttrSK].(*types.AttributeValueMemberS).Value
		got := ""
		if n, ok := it[store.AttrTTL].(*types.AttributeValueMemberN); ok {
			got = n.Value
		}
		if strings.HasPrefix(sk, "CHUNK#") {
			chunks++
		}
		switch {
		case pk == "RUN#run-1", strings.HasPrefix(sk, "RUN#"):
			if got != want {
				t.Errorf("%s/%s: ttl %q, want %q", pk, sk, got, want)
			}
		default:
			if got != "" {
				t.Errorf("%s/%s: ttl %q on an item that must not expire", pk, sk, got)
			}
		}
	}
	if wantChunks := (len(big) + store.ChunkSize - 1) / store.ChunkSize; chunks != wantChunks {
		t.Errorf("%d chunk items, want %d", chunks, wantChunks)
	}
	// Replacing the value removes the old generation's chunks.
	if err := s.PutState(ctx, "run-1", "live", []byte("small"), exp); err != nil {
		t.Fatal(err)
	}
	q, err := db.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("pk = :pk AND begins_with(sk, :c)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "RUN#run-1"}, ":c": &types.AttributeValueMemberS{Value: "CHUNK#"}},
		ConsistentRead:            aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 0 {
		t.Errorf("%d stale chunks left after replacing the value", len(q.Items))
	}
}

// Secrets are never written in plaintext to the table.
func TestDynamoNoPlaintextSecrets(t *testing.T) {
	db := localClient(t)
	table := newTable(t, db)
	s := store.NewDynamo(db, table)
	st := drift.StackRef{Account: "123456789012", Region: "eu-west-1", Name: "Shop"}
	fs := []drift.Finding{{Tier: drift.Declared, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", PhysicalID: "db",
		Path: "MasterUserPassword", Actual: "x", Desired: drift.Secret{Value: "hunter2-plaintext"}}}
	rec := store.RunRecord{RunID: "run-1", Stack: st, StartedAt: time.Now(), Status: store.RunOK}
	if err := s.PutRun(t.Context(), rec, fs); err != nil {
		t.Fatal(err)
	}
	out, err := db.Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) == 0 {
		t.Fatal("nothing written")
	}
	for _, it := range out.Items {
		for name, v := range it {
			var b []byte
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				b = []byte(v.Value)
			case *types.AttributeValueMemberB:
				b = v.Value
			}
			if bytes.Contains(b, []byte("hunter2")) {
				t.Errorf("attribute %s holds the secret in plaintext", name)
			}
		}
	}
}

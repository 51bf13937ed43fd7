package schema_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/schema/schematest"
)

// newerRole is a registry schema for AWS::IAM::Role as an account might
// publish it after the snapshot was taken: a new read-only property and a
// different default.
const newerRole = `{
  "typeName": "AWS::IAM::Role",
  "properties": {
    "Arn": {"type": "string"},
    "RoleName": {"type": "string"},
    "Path": {"type": "string", "default": "/svc/"},
    "LastUsed": {"type": "string"}
  },
  "readOnlyProperties": ["/properties/Arn", "/properties/LastUsed"],
  "createOnlyProperties": ["/properties/RoleName"],
  "primaryIdentifier": ["/properties/RoleName"],
  "handlers": {"read": {}, "list": {}}
}`

func embedded(t *testing.T) *schema.Snapshot {
	t.Helper()
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestRegistryDescribeTypeWins(t *testing.T) {
	api := &schematest.Describer{Schemas: map[string]string{"AWS::IAM::Role": newerRole}}
	reg := schema.NewRegistry(api, embedded(t))
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		res, err := reg.Resolve(ctx, "AWS::IAM::Role")
		if err != nil {
			t.Fatal(err)
		}
		if res.Origin != schema.OriginDescribeType || res.DescribeErr != nil {
			t.Fatalf("origin %v, describe error %v", res.Origin, res.DescribeErr)
		}
		want := &schema.Facts{
			ReadOnly:          []string{"Arn", "LastUsed"},
			WriteOnly:         []string{},
			CreateOnly:        []string{"RoleName"},
			ReadOnlyPaths:     []string{"Arn", "LastUsed"},
			WriteOnlyPaths:    []string{},
			CreateOnlyPaths:   []string{"RoleName"},
			Defaults:          map[string]any{"Path": "/svc/"},
			DefaultPaths:      map[string]any{"Path": "/svc/"},
			PrimaryIdentifier: []string{"RoleName"},
			Taggable:          true,
			Handlers:          []string{"read", "list"},
		}
		if diff := cmp.Diff(res.Facts, want); diff != "" {
			t.Fatalf("facts (-got +want):\n%s", diff)
		}
		// A caller's change must not reach the cache.
		res.Facts.Defaults["Path"] = "/mutated/"
	}
	if n := api.Calls("AWS::IAM::Role"); n != 1 {
		t.Errorf("DescribeType called %d times, want 1 (cached per run)", n)
	}
}

func TestRegistryFallsBackToSnapshot(t *testing.T) {
	throttled := errors.New("Throttling: Rate exceeded")
	snap := embedded(t)
	cases := []struct {
		name    string
		api     *schematest.Describer
		wantErr bool // a DescribeErr is expected
	}{
		{"api error", &schematest.Describer{Errs: map[string]error{"AWS::S3::Bucket": throttled}}, true},
		{"not in the account registry", &schematest.Describer{}, true},
		{"unparsable schema", &schematest.Describer{Schemas: map[string]string{"AWS::S3::Bucket": `{"typeName":`}}, true},
		{"schema of another type", &schematest.Describer{Schemas: map[string]string{"AWS::S3::Bucket": newerRole}}, true},
		{"no api", nil, false},
	}
	want, _ := snap.Lookup("AWS::S3::Bucket")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reg *schema.Registry
			if c.api == nil {
				reg = schema.NewRegistry(nil, snap)
			} else {
				reg = schema.NewRegistry(c.api, snap)
			}
			res, err := reg.Resolve(context.Background(), "AWS::S3::Bucket")
			if err != nil {
				t.Fatal(err)
			}
			if res.Origin != schema.OriginSnapshot {
				t.Errorf("origin %v, want snapshot", res.Origin)
			}
			if (res.DescribeErr != nil) != c.wantErr {
				t.Errorf("describe error %v, want one: %v", res.DescribeErr, c.wantErr)
			}
			if diff := cmp.Diff(res.Facts, want); diff != "" {
				t.Errorf("facts (-got +want):\n%s", diff)
			}
		})
	}
	reg := schema.NewRegistry(&schematest.Describer{Errs: map[string]error{"AWS::S3::Bucket": throttled}}, snap)
	res, _ := reg.Resolve(context.Background(), "AWS::S3::Bucket")
	if !errors.Is(res.DescribeErr, throttled) {
		t.Errorf("describe error %v does not wrap the API error", res.DescribeErr)
	}
}

func TestRegistryUnknownType(t *testing.T) {
	api := &schematest.Describer{}
	reg := schema.NewRegistry(api, embedded(t))
	_, err := reg.Lookup(context.Background(), "Custom::Thing")
	if !errors.Is(err, schema.ErrUnknownType) {
		t.Errorf("error %v, want ErrUnknownType", err)
	}
	var nf *cfntypes.TypeNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("error %v does not carry the DescribeType error", err)
	}
	if _, err := schema.NewRegistry(nil, nil).Lookup(context.Background(), "AWS::S3::Bucket"); !errors.Is(err, schema.ErrUnknownType) {
		t.Errorf("empty registry: error %v, want ErrUnknownType", err)
	}
}

func TestRegistryConcurrentCallersShareOneFetch(t *testing.T) {
	api := &schematest.Describer{
		Schemas: map[string]string{"AWS::IAM::Role": newerRole},
		Gate:    make(chan struct{}),
	}
	reg := schema.NewRegistry(api, embedded(t))
	const n = 16
	var wg sync.WaitGroup
	origins := make([]schema.Origin, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := reg.Resolve(context.Background(), "AWS::IAM::Role")
			origins[i], errs[i] = res.Origin, err
		}()
	}
	close(api.Gate)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || origins[i] != schema.OriginDescribeType {
			t.Errorf("caller %d: origin %v, error %v", i, origins[i], errs[i])
		}
	}
	if c := api.Calls("AWS::IAM::Role"); c != 1 {
		t.Errorf("DescribeType called %d times, want 1", c)
	}
}

func TestRegistryCancelledFetchIsNotCached(t *testing.T) {
	api := &schematest.Describer{
		Schemas: map[string]string{"AWS::IAM::Role": newerRole},
		Gate:    make(chan struct{}),
	}
	reg := schema.NewRegistry(api, embedded(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := reg.Resolve(ctx, "AWS::IAM::Role"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled resolve: error %v, want context.Canceled", err)
	}
	close(api.Gate)
	res, err := reg.Resolve(context.Background(), "AWS::IAM::Role")
	if err != nil || res.Origin != schema.OriginDescribeType {
		t.Fatalf("second resolve: origin %v, error %v", res.Origin, err)
	}
	if c := api.Calls("AWS::IAM::Role"); c != 2 {
		t.Errorf("DescribeType called %d times, want 2 (the cancelled fetch is retried)", c)
	}
}

// TestDescriberShape checks the fake keeps the SDK method's shape, so the
// real client and the fake are interchangeable.
func TestDescriberShape(t *testing.T) {
	type describeTyper interface {
		DescribeType(context.Context, *cloudformation.DescribeTypeInput, ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error)
	}
	for _, d := range []describeTyper{&schematest.Describer{}, (*cloudformation.Client)(nil)} {
		_ = d
	}
	_, err := (&schematest.Describer{}).DescribeType(context.Background(), &cloudformation.DescribeTypeInput{
		Type: cfntypes.RegistryTypeModule, TypeName: aws.String("X::Y::Z::MODULE"),
	})
	if err == nil {
		t.Error("a non-RESOURCE DescribeType was answered")
	}
}

package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/appsync"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// addAll adds live-only resources of typ: identifier → properties.
func addAll(t *testing.T, srv *sandbox.Server, typ string, models map[string]string) {
	t.Helper()
	for id, props := range models {
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpAdd, Region: "us-east-1", Type: typ, Identifier: id, Properties: json.RawMessage(props)}); err != nil {
			t.Fatalf("add %s %s: %v", typ, id, err)
		}
	}
}

// pager is an aws-sdk-go-v2 paginator.
type pager[Out, Opt any] interface {
	HasMorePages() bool
	NextPage(context.Context, ...func(*Opt)) (*Out, error)
}

// readAll reads a listing to its end through an SDK paginator and counts
// its items.
func readAll[Out, Opt any](t *testing.T, c context.Context, p pager[Out, Opt], count func(*Out) int) int {
	t.Helper()
	n := 0
	for p.HasMorePages() {
		pg, err := p.NextPage(c)
		if err != nil {
			t.Fatal(err)
		}
		n += count(pg)
	}
	return n
}

// TestPageTokensBoundToTheirListing: through aws-sdk-go-v2's own
// paginators, a listing read page by page returns every item, and a page
// token sent with other parameters than the listing that issued it is
// refused with the service's invalid-token code — for one service of each
// protocol family that pages with opaque tokens: query (IAM), JSON (Logs),
// REST-JSON (AppSync) and EC2. (No REST-XML operation the sandbox serves
// pages with a token: Route 53's lists resume at a named record or zone.)
func TestPageTokensBoundToTheirListing(t *testing.T) {
	clock := &testClock{t: time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)}
	srv, u := start(t, "testdata/services.json", sandbox.Options{Now: clock.now})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")

	t.Run("query: IAM ListAttachedRolePolicies", func(t *testing.T) {
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::IAM::Role", Identifier: "Svc-Role-1", Path: "ManagedPolicyArns",
			Value: json.RawMessage(`["arn:aws:iam::111111111111:policy/Svc-Managed-1","arn:aws:iam::aws:policy/ReadOnlyAccess","arn:aws:iam::aws:policy/SecurityAudit"]`)}); err != nil {
			t.Fatal(err)
		}
		cl := iam.NewFromConfig(conf)
		in := &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("Svc-Role-1"), MaxItems: aws.Int32(1)}
		got := readAll(t, c, iam.NewListAttachedRolePoliciesPaginator(cl, in), func(o *iam.ListAttachedRolePoliciesOutput) int { return len(o.AttachedPolicies) })
		if got != 3 {
			t.Errorf("the paginator read %d attached policies, want 3", got)
		}
		first, err := cl.ListAttachedRolePolicies(c, in)
		if err != nil || first.Marker == nil {
			t.Fatalf("first page: marker %v, error %v", first.Marker, err)
		}
		if _, err := cl.ListAttachedRolePolicies(c, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("Svc-Role-1"), MaxItems: aws.Int32(2), Marker: first.Marker}); err != nil {
			t.Errorf("the marker with another page size: %v", err)
		}
		if _, err := cl.ListAttachedRolePolicies(c, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("Svc-Role-1"), PathPrefix: aws.String("/"), Marker: first.Marker}); code(err) != "ValidationError" {
			t.Errorf("the marker with another PathPrefix: %v, want ValidationError", err)
		}
	})

	addAll(t, srv, "AWS::Logs::MetricFilter", map[string]string{
		"g1|f1": `{"LogGroupName":"g1","FilterName":"f1","FilterPattern":"ERROR","MetricTransformations":[{"MetricName":"m","MetricNamespace":"n","MetricValue":"1"}]}`,
		"g1|f2": `{"LogGroupName":"g1","FilterName":"f2","FilterPattern":"WARN","MetricTransformations":[{"MetricName":"m","MetricNamespace":"n","MetricValue":"1"}]}`,
		"g1|f3": `{"LogGroupName":"g1","FilterName":"f3","FilterPattern":"INFO","MetricTransformations":[{"MetricName":"m","MetricNamespace":"n","MetricValue":"1"}]}`,
		"g2|f1": `{"LogGroupName":"g2","FilterName":"f1","FilterPattern":"ERROR","MetricTransformations":[{"MetricName":"m","MetricNamespace":"n","MetricValue":"1"}]}`,
	})
	t.Run("json: Logs DescribeMetricFilters", func(t *testing.T) {
		cl := cloudwatchlogs.NewFromConfig(conf)
		in := &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), Limit: aws.Int32(1)}
		got := readAll(t, c, cloudwatchlogs.NewDescribeMetricFiltersPaginator(cl, in), func(o *cloudwatchlogs.DescribeMetricFiltersOutput) int { return len(o.MetricFilters) })
		if got != 3 {
			t.Errorf("the paginator read %d metric filters of g1, want 3", got)
		}
		first, err := cl.DescribeMetricFilters(c, in)
		if err != nil || first.NextToken == nil {
			t.Fatalf("first page: token %v, error %v", first.NextToken, err)
		}
		if _, err := cl.DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g2"), NextToken: first.NextToken}); code(err) != "InvalidParameterException" {
			t.Errorf("the token for another log group: %v, want InvalidParameterException", err)
		}
		if _, err := cl.DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), FilterNamePrefix: aws.String("f"), NextToken: first.NextToken}); code(err) != "InvalidParameterException" {
			t.Errorf("the token with a filter name prefix added: %v, want InvalidParameterException", err)
		}
	})

	addAll(t, srv, "AWS::AppSync::GraphQLApi", map[string]string{
		"arn:aws:appsync:us-east-1:111111111111:apis/a1": `{"ApiId":"a1","Name":"one","AuthenticationType":"API_KEY"}`,
		"arn:aws:appsync:us-east-1:111111111111:apis/a2": `{"ApiId":"a2","Name":"two","AuthenticationType":"API_KEY"}`,
	})
	keys := map[string]string{}
	for i, api := range []string{"a1", "a1", "a1", "a2"} {
		keys[fmt.Sprintf("arn:aws:appsync:us-east-1:111111111111:apis/%s/apikeys/da2-key%d", api, i)] = `{"ApiId":"` + api + `"}`
	}
	addAll(t, srv, "AWS::AppSync::ApiKey", keys)
	t.Run("rest-json: AppSync ListApiKeys", func(t *testing.T) {
		cl := appsync.NewFromConfig(conf)
		in := &appsync.ListApiKeysInput{ApiId: aws.String("a1"), MaxResults: 1}
		got := readAll(t, c, appsync.NewListApiKeysPaginator(cl, in), func(o *appsync.ListApiKeysOutput) int { return len(o.ApiKeys) })
		if got != 3 {
			t.Errorf("the paginator read %d keys of a1, want 3", got)
		}
		first, err := cl.ListApiKeys(c, in)
		if err != nil || first.NextToken == nil {
			t.Fatalf("first page: token %v, error %v", first.NextToken, err)
		}
		if _, err := cl.ListApiKeys(c, &appsync.ListApiKeysInput{ApiId: aws.String("a2"), NextToken: first.NextToken}); code(err) != "BadRequestException" {
			t.Errorf("the token for another API: %v, want BadRequestException", err)
		}
	})

	sgs := map[string]string{}
	for i := range 7 {
		vpc := "vpc-0000000a"
		if i == 6 {
			vpc = "vpc-0000000b"
		}
		id := fmt.Sprintf("sg-%017d", i)
		sgs[id] = fmt.Sprintf(`{"GroupId":%q,"GroupName":"g%d","GroupDescription":"d","VpcId":%q}`, id, i, vpc)
	}
	addAll(t, srv, "AWS::EC2::SecurityGroup", sgs)
	t.Run("ec2: DescribeSecurityGroups", func(t *testing.T) {
		cl := ec2.NewFromConfig(conf)
		byVPC := func(vpc string) []ec2types.Filter {
			return []ec2types.Filter{{Name: aws.String("vpc-id"), Values: []string{vpc}}}
		}
		in := &ec2.DescribeSecurityGroupsInput{Filters: byVPC("vpc-0000000a"), MaxResults: aws.Int32(5)}
		got := readAll(t, c, ec2.NewDescribeSecurityGroupsPaginator(cl, in), func(o *ec2.DescribeSecurityGroupsOutput) int { return len(o.SecurityGroups) })
		if got != 6 {
			t.Errorf("the paginator read %d security groups of the VPC, want 6", got)
		}
		first, err := cl.DescribeSecurityGroups(c, in)
		if err != nil || first.NextToken == nil {
			t.Fatalf("first page: token %v, error %v", first.NextToken, err)
		}
		if _, err := cl.DescribeSecurityGroups(c, &ec2.DescribeSecurityGroupsInput{Filters: byVPC("vpc-0000000b"), MaxResults: aws.Int32(5), NextToken: first.NextToken}); code(err) != "InvalidPaginationToken" {
			t.Errorf("the token with another filter: %v, want InvalidPaginationToken", err)
		}
	})
}

// TestPageTokensExpire: where AWS documents how long a token holds
// (CloudWatch Logs: 24 hours), a token is taken up to that age on the
// server's clock and refused after it with the service's invalid-token
// code; where nothing is documented (IAM), a token does not expire.
func TestPageTokensExpire(t *testing.T) {
	start0 := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	clock := &testClock{t: start0}
	srv, u := start(t, "testdata/services.json", sandbox.Options{Now: clock.now})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	filters := map[string]string{}
	for i := range 3 {
		filters[fmt.Sprintf("g1|f%d", i)] = fmt.Sprintf(`{"LogGroupName":"g1","FilterName":"f%d","FilterPattern":"ERROR","MetricTransformations":[{"MetricName":"m","MetricNamespace":"n","MetricValue":"1"}]}`, i)
	}
	addAll(t, srv, "AWS::Logs::MetricFilter", filters)
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::IAM::Role", Identifier: "Svc-Role-1", Path: "ManagedPolicyArns",
		Value: json.RawMessage(`["arn:aws:iam::111111111111:policy/Svc-Managed-1","arn:aws:iam::aws:policy/ReadOnlyAccess"]`)}); err != nil {
		t.Fatal(err)
	}
	logs := cloudwatchlogs.NewFromConfig(conf)
	in := &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), Limit: aws.Int32(1)}
	first, err := logs.DescribeMetricFilters(c, in)
	if err != nil || first.NextToken == nil {
		t.Fatalf("first page: token %v, error %v", first.NextToken, err)
	}
	iamc := iam.NewFromConfig(conf)
	role := &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("Svc-Role-1"), MaxItems: aws.Int32(1)}
	iamFirst, err := iamc.ListAttachedRolePolicies(c, role)
	if err != nil || iamFirst.Marker == nil {
		t.Fatalf("IAM first page: marker %v, error %v", iamFirst.Marker, err)
	}

	clock.add(24 * time.Hour)
	second, err := logs.DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), Limit: aws.Int32(1), NextToken: first.NextToken})
	if err != nil || second.NextToken == nil {
		t.Fatalf("a token 24 hours old: token %v, error %v", second.NextToken, err)
	}
	clock.add(time.Second)
	if _, err := logs.DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), NextToken: first.NextToken}); code(err) != "InvalidParameterException" {
		t.Errorf("a token 24 hours and a second old: %v, want InvalidParameterException", err)
	}
	if _, err := logs.DescribeMetricFilters(c, &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: aws.String("g1"), NextToken: second.NextToken}); err != nil {
		t.Errorf("the token the 24-hour-old one led to, a second old: %v", err)
	}
	clock.add(365 * 24 * time.Hour)
	if _, err := iamc.ListAttachedRolePolicies(c, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("Svc-Role-1"), Marker: iamFirst.Marker}); err != nil {
		t.Errorf("an IAM marker a year old (IAM documents no lifetime): %v", err)
	}
}

// TestCloudControlTokenBoundToType: Cloud Control's ListResources, the
// call realdrift's readers page most, lists a type through the SDK
// paginator, and refuses a token sent for another type with
// InvalidRequestException.
func TestCloudControlTokenBoundToType(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{PageSize: 1})
	c := ctx(t)
	cl := cloudcontrol.NewFromConfig(cfg(u, mgmtKey, "us-east-1"))
	in := &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::S3::Bucket")}
	if got := readAll(t, c, cloudcontrol.NewListResourcesPaginator(cl, in), func(o *cloudcontrol.ListResourcesOutput) int { return len(o.ResourceDescriptions) }); got != 2 {
		t.Errorf("the paginator read %d buckets, want 2", got)
	}
	first, err := cl.ListResources(c, in)
	if err != nil || first.NextToken == nil {
		t.Fatalf("first page: token %v, error %v", first.NextToken, err)
	}
	if _, err := cl.ListResources(c, &cloudcontrol.ListResourcesInput{TypeName: aws.String("AWS::SQS::Queue"), NextToken: first.NextToken}); code(err) != "InvalidRequestException" {
		t.Errorf("the token for another type: %v, want InvalidRequestException", err)
	}
}

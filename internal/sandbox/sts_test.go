package sandbox_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/organizations"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestSTSAndOrganizations(t *testing.T) {
	srv, url := start(t, "testdata/world.json", sandbox.Options{})
	c := ctx(t)
	tests := []struct{ key, account, arn string }{
		{mgmtKey, mgmt, "arn:aws:iam::111111111111:user/alice"},
		{rootKey, mgmt, "arn:aws:iam::111111111111:root"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			out, err := sts.NewFromConfig(cfg(url, tt.key, "us-east-1")).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
			if err != nil {
				t.Fatal(err)
			}
			if aws.ToString(out.Account) != tt.account || aws.ToString(out.Arn) != tt.arn {
				t.Errorf("got %s %s", aws.ToString(out.Account), aws.ToString(out.Arn))
			}
		})
	}

	t.Run("AssumeRole", func(t *testing.T) {
		cl := sts.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
		out, err := cl.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/realdrift-read"), RoleSessionName: aws.String("sweep")})
		if err != nil {
			t.Fatal(err)
		}
		cr := out.Credentials
		mc := cfg(url, aws.ToString(cr.AccessKeyId), "eu-west-1")
		id, err := sts.NewFromConfig(mc).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(id.Account) != member || aws.ToString(id.Arn) != "arn:aws:sts::222222222222:assumed-role/realdrift-read/sweep" {
			t.Errorf("identity %s %s", aws.ToString(id.Account), aws.ToString(id.Arn))
		}
		cc := cloudcontrol.NewFromConfig(mc)
		if m := getProps(t, cc, queueType, "https://sqs.eu-west-1.amazonaws.com/222222222222/App-Queue-MEM"); m["VisibilityTimeout"] != 45.0 {
			t.Errorf("member queue %v", m)
		}
		if _, err := cl.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::999999999999:role/x"), RoleSessionName: aws.String("s")}); code(err) != "AccessDenied" {
			t.Errorf("role outside the world: %v", err)
		}
		// AccessDenied for a role: its sessions are refused.
		if err := srv.SetFaults([]sandbox.FaultRule{{Role: "realdrift-read", Service: "cloudcontrolapi"}}); err != nil {
			t.Fatal(err)
		}
		_, err = cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String("https://sqs.eu-west-1.amazonaws.com/222222222222/App-Queue-MEM")})
		if code(err) != "AccessDeniedException" {
			t.Errorf("denied role: err = %v", err)
		}
		if _, err := sts.NewFromConfig(mc).GetCallerIdentity(c, &sts.GetCallerIdentityInput{}); err != nil {
			t.Errorf("the rule is for cloudcontrolapi only: %v", err)
		}
		_ = srv.SetFaults(nil)
	})

	t.Run("Organizations", func(t *testing.T) {
		org := organizations.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
		d, err := org.DescribeOrganization(c, &organizations.DescribeOrganizationInput{})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(d.Organization.Id) != "o-a1b2c3d4e5" || aws.ToString(d.Organization.MasterAccountId) != mgmt {
			t.Errorf("organization %+v", d.Organization)
		}
		p := organizations.NewListAccountsPaginator(org, &organizations.ListAccountsInput{MaxResults: aws.Int32(1)})
		var ids []string
		for i := 0; p.HasMorePages() && i < 5; i++ {
			out, err := p.NextPage(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range out.Accounts {
				ids = append(ids, aws.ToString(a.Id))
			}
		}
		if len(ids) != 2 || ids[1] != member {
			t.Errorf("accounts %v", ids)
		}
	})
}

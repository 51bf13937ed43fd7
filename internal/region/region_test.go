package region

import "testing"

func TestValid(t *testing.T) {
	for name, want := range map[string]bool{
		"us-east-1": true, "eu-west-1": true, "cn-north-1": true, "us-gov-west-1": true,
		"ap-southeast-9": true, // newer than the data: the partition's pattern admits it
		"us-east1":       false, "useast-1": false, "eu-west": false, "": false, "US-EAST-1": false, "r": false,
	} {
		if got := Valid(name); got != want {
			t.Errorf("Valid(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestKnown(t *testing.T) {
	known := Known()
	has := map[string]bool{}
	for _, r := range known {
		has[r] = true
	}
	for _, r := range []string{"us-east-1", "eu-central-1", "cn-northwest-1", "us-gov-east-1"} {
		if !has[r] {
			t.Errorf("Known() lacks %s (%d regions)", r, len(known))
		}
	}
}

func TestHome(t *testing.T) {
	for _, tc := range []struct{ service, region, want string }{
		{"iam", "eu-west-1", "us-east-1"},
		{"iam", "us-east-1", "us-east-1"},
		{"cloudfront", "ap-southeast-2", "us-east-1"},
		{"route53", "eu-central-1", "us-east-1"},
		{"networkmanager", "eu-west-1", "us-west-2"},
		{"iam", "cn-northwest-1", "cn-north-1"},
		{"iam", "us-gov-east-1", "us-gov-west-1"},
		{"sqs", "eu-west-1", "eu-west-1"},
		{"route53resolver", "eu-west-1", "eu-west-1"},
		{"s3", "eu-west-1", "eu-west-1"},
		{"iam", "not-a-region", "not-a-region"},
	} {
		if got := Home(tc.service, tc.region); got != tc.want {
			t.Errorf("Home(%q, %q) = %q, want %q", tc.service, tc.region, got, tc.want)
		}
	}
}

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

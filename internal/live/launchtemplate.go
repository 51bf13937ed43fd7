package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

// AWS::EC2::LaunchTemplate: Cloud Control reads the template's name, id
// and version numbers but not its LaunchTemplateData (write-only in the
// schema), which is what a launch template is. The reader takes Cloud
// Control's model (so Fn::GetAtt LatestVersionNumber still resolves) and
// adds the default version's data from DescribeLaunchTemplateVersions,
// projected by its SDK field names (the template's) without the API's
// own MetadataOptions.State. When the data cannot be read it stays
// unread (a readGap), never guessed; TagSpecifications' and
// VersionDescription's top-level forms are write-only too.

type launchTemplateAPI interface {
	DescribeLaunchTemplateVersions(ctx context.Context, in *ec2.DescribeLaunchTemplateVersionsInput, optFns ...func(*ec2.Options)) (*ec2.DescribeLaunchTemplateVersionsOutput, error)
}

var _ launchTemplateAPI = (*ec2.Client)(nil)

// readLaunchTemplate reads AWS::EC2::LaunchTemplate (physical id: the
// launch template id).
func readLaunchTemplate(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	id, err := identifier(r, c.scope(ctx))
	if err != nil {
		return nil, err
	}
	model, err := getResource(ctx, c, r.Type, id)
	if err != nil {
		return nil, err
	}
	data, err := launchTemplateData(ctx, c, r.PhysicalID)
	switch {
	case isNotFound(err):
		return nil, err
	case err != nil:
		delete(model, "LaunchTemplateData") // unread: a readGap
	case data != nil:
		model["LaunchTemplateData"] = data
	}
	return model, nil
}

// launchTemplateData returns the default version's data in the template's
// shape; nil when the version carries none.
func launchTemplateData(ctx context.Context, c *Clients, id string) (map[string]any, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	out, err := c.EC2.DescribeLaunchTemplateVersions(ctx, &ec2.DescribeLaunchTemplateVersionsInput{LaunchTemplateId: &id, Versions: []string{"$Default"}})
	if err != nil {
		return nil, err
	}
	for _, v := range out.LaunchTemplateVersions {
		if aws.ToString(v.LaunchTemplateId) != id && v.LaunchTemplateId != nil {
			continue
		}
		if v.LaunchTemplateData == nil {
			return nil, nil
		}
		d := sdkModel(*v.LaunchTemplateData)
		if mo := objectAt(d, "MetadataOptions"); mo != nil {
			delete(mo, "State")
		}
		return d, nil
	}
	return nil, fmt.Errorf("default version of launch template %s: %w", id, ErrNotFound)
}

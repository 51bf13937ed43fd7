package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/iam"
)

// readManagedPolicy reads AWS::IAM::ManagedPolicy (physical id = policy
// ARN): {PolicyDocument, Path, Description, Roles, Users, Groups}, plus
// ManagedPolicyName when the template declares it. The document is the
// default version's; the attachments come from ListEntitiesForPolicy, so a
// role attached out of band shows up.
func readManagedPolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.IAM == nil {
		return nil, skip("no IAM client")
	}
	arn := r.PhysicalID
	pol, err := c.IAM.GetPolicy(ctx, &iam.GetPolicyInput{PolicyArn: &arn})
	if err != nil {
		return nil, err
	}
	if pol.Policy == nil || deref(pol.Policy.DefaultVersionId) == "" {
		return nil, skip("GetPolicy returned no default version")
	}
	ver, err := c.IAM.GetPolicyVersion(ctx, &iam.GetPolicyVersionInput{PolicyArn: &arn, VersionId: pol.Policy.DefaultVersionId})
	if err != nil {
		return nil, err
	}
	if ver.PolicyVersion == nil || ver.PolicyVersion.Document == nil {
		return nil, skip("GetPolicyVersion returned no document")
	}
	doc, err := parsePolicy(*ver.PolicyVersion.Document)
	if err != nil {
		return nil, err
	}
	roles, users, groups := []string{}, []string{}, []string{}
	var marker *string
	for page := 0; ; page++ {
		if page == 1000 {
			return nil, skip("ListEntitiesForPolicy did not finish after 1000 pages")
		}
		out, err := c.IAM.ListEntitiesForPolicy(ctx, &iam.ListEntitiesForPolicyInput{PolicyArn: &arn, Marker: marker})
		if err != nil {
			return nil, fmt.Errorf("list attachments: %w", err)
		}
		for _, e := range out.PolicyRoles {
			roles = append(roles, deref(e.RoleName))
		}
		for _, e := range out.PolicyUsers {
			users = append(users, deref(e.UserName))
		}
		for _, e := range out.PolicyGroups {
			groups = append(groups, deref(e.GroupName))
		}
		if !out.IsTruncated || deref(out.Marker) == "" {
			break
		}
		marker = out.Marker
	}
	model := map[string]any{
		"PolicyDocument": doc,
		"Path":           deref(pol.Policy.Path),
		"Description":    deref(pol.Policy.Description),
		"Roles":          strList(roles),
		"Users":          strList(users),
		"Groups":         strList(groups),
	}
	if _, ok := r.Declared["ManagedPolicyName"]; ok {
		model["ManagedPolicyName"] = deref(pol.Policy.PolicyName)
	}
	return model, nil
}

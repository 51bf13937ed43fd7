package organizations

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

func organization(st *world.State) (*world.Organization, error) {
	o := st.World.Organization
	if o == nil {
		return nil, wire.Errf(400, "AWSOrganizationsNotInUseException", "Your account is not a member of an organization.")
	}
	return o, nil
}

func orgDescribeOrganization(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	o, err := organization(st)
	if err != nil {
		return nil, err
	}
	mgmt := st.Account(o.ManagementAccountID)
	return map[string]any{"Organization": map[string]any{
		"Id":                 o.ID,
		"Arn":                "arn:aws:organizations::" + o.ManagementAccountID + ":organization/" + o.ID,
		"FeatureSet":         o.FeatureSet,
		"MasterAccountArn":   "arn:aws:organizations::" + o.ManagementAccountID + ":account/" + o.ID + "/" + o.ManagementAccountID,
		"MasterAccountId":    o.ManagementAccountID,
		"MasterAccountEmail": mgmt.Email,
		"AvailablePolicyTypes": []map[string]string{
			{"Type": "SERVICE_CONTROL_POLICY", "Status": "ENABLED"},
		},
	}}, nil
}

func orgListAccounts(st *world.State, c *wire.Call, in struct {
	NextToken  string
	MaxResults int
}) (any, error) {
	o, err := organization(st)
	if err != nil {
		return nil, err
	}
	if c.Account != o.ManagementAccountID {
		return nil, wire.Errf(400, "AccessDeniedException", "You don't have permissions to access this resource.")
	}
	cur, err := wire.Paging{Prefix: "accounts", Default: 20,
		BadToken: wire.Errf(400, "InvalidInputException", "You specified an invalid value for nextToken.")}.Start(c, min(in.MaxResults, 20), in.NextToken)
	if err != nil {
		return nil, err
	}
	all := st.World.Accounts
	lo, hi, next := cur.Cut(len(all))
	accts := []map[string]any{}
	for _, a := range all[lo:hi] {
		method := "INVITED"
		if a.ID == o.ManagementAccountID {
			method = "CREATED"
		}
		accts = append(accts, map[string]any{
			"Id": a.ID, "Arn": "arn:aws:organizations::" + o.ManagementAccountID + ":account/" + o.ID + "/" + a.ID,
			"Email": a.Email, "Name": a.Name, "Status": "ACTIVE", "State": "ACTIVE",
			"JoinedMethod": method, "JoinedTimestamp": wire.Epoch(world.DefaultTime),
		})
	}
	out := map[string]any{"Accounts": accts}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

package kms

import (
	"encoding/json"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// kmsListAliases lists the account region's aliases (Region.KMSAliases and
// the AWS::KMS::Alias models), by name, optionally only those targeting one
// key (KeyId: a key id or key ARN; a key that does not exist is a
// NotFoundException). Limit and Marker page the list as KMS does
// (Truncated, NextMarker).
func kmsListAliases(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		KeyID  string `json:"KeyId"`
		Limit  int
		Marker string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "kms", Default: 50, Max: 1000,
		BadSize: func(n string) error {
			return wire.Errf(400, "ValidationException", "1 validation error detected: Value '%s' at 'limit' failed to satisfy constraint: Member must have value between 1 and 1000", n)
		},
		BadToken: wire.Errf(400, "InvalidMarkerException", "Invalid marker")}.Start(c, in.Limit, in.Marker)
	if err != nil {
		return nil, err
	}
	want := in.KeyID
	if i := strings.LastIndex(want, ":key/"); i >= 0 {
		want = want[i+len(":key/"):]
	}
	st.RLock()
	defer st.RUnlock()
	aliases := map[string]string{}
	if r := st.Region(c.Account, c.Region); r != nil {
		for k, v := range r.KMSAliases {
			aliases[k] = v
		}
	}
	// The world's AWS::KMS::Alias models are aliases too.
	for _, a := range st.OfType(c.Account, c.Region, "AWS::KMS::Alias") {
		name, target := world.FieldString(a, "AliasName"), world.FieldString(a, "TargetKeyId")
		if name == "" {
			name = a.CCID()
		}
		if i := strings.LastIndex(target, ":key/"); i >= 0 {
			target = target[i+len(":key/"):]
		}
		aliases[name] = target
	}
	if want != "" && !kmsKeyExists(st, c, want, aliases) {
		return nil, wire.Errf(400, "NotFoundException", "Key 'arn:aws:kms:%s:%s:key/%s' does not exist", c.Region, c.Account, want)
	}
	items := []map[string]any{}
	for _, name := range world.SortedKeys(aliases) {
		key := aliases[name]
		if want != "" && key != want {
			continue
		}
		items = append(items, map[string]any{
			"AliasName":       name,
			"AliasArn":        "arn:aws:kms:" + c.Region + ":" + c.Account + ":" + name,
			"TargetKeyId":     key,
			"CreationDate":    wire.Epoch(world.DefaultTime),
			"LastUpdatedDate": wire.Epoch(world.DefaultTime),
		})
	}
	lo, hi, next := cur.Cut(len(items))
	out := map[string]any{"Aliases": items[lo:hi], "Truncated": next != ""}
	if next != "" {
		out["NextMarker"] = next
	}
	return out, nil
}

// kmsKeyExists reports whether a key id is an AWS::KMS::Key model of the
// account region or the target of an alias.
func kmsKeyExists(st *world.State, c *wire.Call, id string, aliases map[string]string) bool {
	for _, k := range st.OfType(c.Account, c.Region, "AWS::KMS::Key") {
		if k.CCID() == id || world.FieldString(k, "KeyId") == id {
			return true
		}
	}
	for _, t := range aliases {
		if t == id {
			return true
		}
	}
	return false
}

// Key finds the customer-managed key id names in an account region — a key
// id, a key ARN, an alias name (alias/NAME) or an alias ARN — and returns
// its ARN and key policy (the AWS::KMS::Key model's KeyPolicy, KMS's
// default one when the model has none; an AWS managed key, alias/aws/SVC,
// exists in every account region, usable by the account's principals
// through that service only); ok false
// when the world has no such key. It takes st's read lock.
func Key(st *world.State, account, region, id string) (arn string, policy json.RawMessage, ok bool) {
	st.RLock()
	defer st.RUnlock()
	if f := strings.SplitN(id, ":", 6); len(f) == 6 && strings.HasPrefix(id, "arn:") {
		region, account, id = f[3], f[4], f[5]
	}
	if name, isAlias := strings.CutPrefix(id, "alias/"); isAlias {
		target := ""
		if r := st.Region(account, region); r != nil {
			target = r.KMSAliases["alias/"+name]
		}
		for _, a := range st.OfType(account, region, "AWS::KMS::Alias") {
			if n := world.FieldString(a, "AliasName"); n == id || (n == "" && a.CCID() == id) {
				target = world.FieldString(a, "TargetKeyId")
			}
		}
		if i := strings.LastIndex(target, ":key/"); i >= 0 {
			target = target[i+len(":key/"):]
		}
		if target == "" {
			if svc, ok := strings.CutPrefix(name, "aws/"); ok && svc != "" {
				return awsManagedKey(account, region, svc)
			}
			return "", nil, false
		}
		id = target
	}
	id = strings.TrimPrefix(id, "key/")
	for _, k := range st.OfType(account, region, "AWS::KMS::Key") {
		if k.CCID() == id || world.FieldString(k, "KeyId") == id {
			policy := world.Field(k, "KeyPolicy")
			if len(policy) == 0 {
				// A key created without one has KMS's default key policy:
				// the account (its IAM policies) may use it.
				policy = json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Sid":"Enable IAM User Permissions","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::` + account + `:root"},"Action":"kms:*","Resource":"*"}]}`)
			}
			return "arn:aws:kms:" + region + ":" + account + ":key/" + id, json.RawMessage(world.CompactJSON(policy)), true
		}
	}
	return "", nil, false
}

// awsManagedKey is the AWS managed key of service svc (alias/aws/svc) and
// the policy AWS gives it: any principal of the account may use it through
// the service, in its region.
func awsManagedKey(account, region, svc string) (string, json.RawMessage, bool) {
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},` +
		`"Action":["kms:Encrypt","kms:Decrypt","kms:ReEncrypt*","kms:GenerateDataKey*","kms:CreateGrant","kms:DescribeKey"],"Resource":"*",` +
		`"Condition":{"StringEquals":{"kms:CallerAccount":"` + account + `","kms:ViaService":"` + svc + "." + region + `.amazonaws.com"}}}]}`
	return "arn:aws:kms:" + region + ":" + account + ":key/" + world.UUIDFrom("aws-managed/"+account+"/"+region+"/"+svc), json.RawMessage(policy), true
}

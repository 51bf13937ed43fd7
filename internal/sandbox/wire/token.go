package wire

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/aws/smithy-go/encoding/cbor"
)

// pageMembers are the names (compared without case) of the input members
// that carry a list operation's page token or page size in AWS's models
// (botocore's paginators name them input_token and limit_key): a request
// for a later page changes only these, so they are no part of the listing
// a token is bound to. TestPageMembersFromModels holds the table to the
// paginators of every served operation.
var pageMembers = map[string]bool{
	"nexttoken": true, "marker": true,
	"maxresults": true, "maxrecords": true, "maxitems": true, "limit": true, "pagesize": true,
}

// IsPageMember says whether an input member carries a page token or size
// (pageMembers), for the test that checks the table against AWS's models.
func IsPageMember(name string) bool { return pageMembers[strings.ToLower(name)] }

// Listing is the digest of the parameters that define the listing a call
// asks for: its service, operation, account and region and every input
// member it carries — path parameters, the form or query string, and a
// JSON or CBOR body's members — except the page token and page size
// (pageMembers, and any member whose value is the token given), so every
// page of one listing has the same digest and a request with any other
// parameter has another.
func Listing(c *Call, token string) string {
	h := sha256.New()
	put := func(parts ...string) {
		for _, p := range parts {
			var n [8]byte
			binary.BigEndian.PutUint64(n[:], uint64(len(p)))
			h.Write(n[:])
			h.Write([]byte(p))
		}
	}
	name := ""
	if c.Service != nil {
		name = c.Service.Name
	}
	put(name, c.Action, c.Account, c.Region)
	skip := func(key, value string) bool {
		top, _, _ := strings.Cut(key, ".")
		return pageMembers[strings.ToLower(top)] || (token != "" && value == token)
	}
	keys := make([]string, 0, len(c.Params))
	for k := range c.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !skip(k, c.Params[k]) {
			put("path", k, c.Params[k])
		}
	}
	keys = keys[:0]
	for k := range c.Form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range c.Form[k] {
			if !skip(k, v) {
				put("form", k, v)
			}
		}
	}
	switch body, members := bodyMembers(c); {
	case members:
		for k, v := range body {
			if s, ok := v.(string); pageMembers[strings.ToLower(k)] || (ok && token != "" && s == token) {
				delete(body, k)
			}
		}
		b, _ := json.Marshal(body) // maps marshal with sorted keys
		put("body", string(b))
	case c.Service == nil || (c.Service.Protocol != ProtoQuery && c.Service.Protocol != ProtoEC2):
		put("raw", string(c.Body)) // a query body is the form, read above
	}
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:8])
}

// bodyMembers decodes a JSON or CBOR request body into its members (an
// empty one has none); members is false when the body is not one of
// these (a query form, an XML document).
func bodyMembers(c *Call) (body map[string]any, members bool) {
	var v any
	switch {
	case c.Service != nil && c.Service.Protocol == ProtoCBOR:
		if len(c.Body) == 0 {
			return map[string]any{}, true
		}
		d, err := cbor.Decode(c.Body)
		if err != nil {
			return nil, false
		}
		b, err := json.Marshal(fromCBOR(d))
		if err != nil || json.Unmarshal(b, &v) != nil {
			return nil, false
		}
	case c.Service == nil || c.Service.Protocol == ProtoJSON || c.Service.Protocol == ProtoRESTJSON:
		if len(c.Body) == 0 {
			return map[string]any{}, true
		}
		if json.Unmarshal(c.Body, &v) != nil {
			return nil, false
		}
	default:
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// token is an issued page token's content.
type token struct {
	off     int
	issued  time.Time
	listing string
}

// pageToken encodes a token: opaque, URL- and XML-safe, unchanged through
// every SDK's paginator.
func (t token) encode(prefix string) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(t.off))
	binary.BigEndian.PutUint64(b[8:], uint64(t.issued.UnixNano()))
	l, _ := hex.DecodeString(t.listing)
	return prefix + "-" + base64.RawURLEncoding.EncodeToString(append(b[:], l...))
}

// parseToken decodes a token the prefix's operation issued.
func parseToken(prefix, s string) (token, bool) {
	rest, ok := strings.CutPrefix(s, prefix+"-")
	if !ok {
		return token{}, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(b) != 24 {
		return token{}, false
	}
	off := binary.BigEndian.Uint64(b[:8])
	if off > 1<<31 {
		return token{}, false
	}
	return token{off: int(off), issued: time.Unix(0, int64(binary.BigEndian.Uint64(b[8:16]))), listing: hex.EncodeToString(b[16:])}, true
}

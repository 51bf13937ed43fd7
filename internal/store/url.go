package store

import (
	"fmt"
	"net/url"
	"strings"
)

// Scheme is the kind of store a store URL names.
type Scheme uint8

const (
	// SchemeFile is a state directory (File): file://DIR.
	SchemeFile Scheme = iota + 1
	// SchemeDynamo is the service's table (Dynamo): dynamodb://TABLE.
	SchemeDynamo
)

func (s Scheme) String() string {
	switch s {
	case SchemeFile:
		return "file"
	case SchemeDynamo:
		return "dynamodb"
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// URL is a parsed store location, the value of the CLI's --store flag:
//
//	dynamodb://TABLE[?region=REGION]   the service's DynamoDB table
//	file://DIR                         a state directory (relative or absolute)
type URL struct {
	Scheme Scheme
	// Table and Region name a DynamoDB table (Region "" means the caller's
	// default region).
	Table, Region string
	// Dir is a state directory, as written after file://.
	Dir string
}

// URLSyntax is what ParseURL accepts, for messages.
const URLSyntax = "dynamodb://TABLE[?region=REGION] or file://DIR"

// ParseURL reads a store URL. Anything else (another scheme, an empty
// table or directory, a path after the table, a parameter other than
// region) is an error naming the value and the syntax.
func ParseURL(raw string) (URL, error) {
	bad := func(why string) (URL, error) {
		return URL{}, fmt.Errorf("store URL %q: %s (want %s)", raw, why, URLSyntax)
	}
	if dir, ok := strings.CutPrefix(raw, "file://"); ok {
		switch {
		case dir == "":
			return bad("no directory")
		case strings.ContainsAny(dir, "?#\x00"):
			return bad("a directory takes no parameters")
		}
		return URL{Scheme: SchemeFile, Dir: dir}, nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return bad("not a URL")
	case u.Scheme != "dynamodb":
		return bad("unknown scheme")
	case u.Host == "":
		return bad("no table")
	case u.Path != "" && u.Path != "/", u.Fragment != "", u.User != nil:
		return bad("only a table name after dynamodb://")
	case !validTable(u.Host):
		return bad("a DynamoDB table name is 3-255 of A-Z a-z 0-9 _ - .")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return bad("bad parameters")
	}
	for k, v := range q {
		if k != "region" {
			return bad(fmt.Sprintf("unknown parameter %q (only region)", k))
		}
		if len(v) != 1 || v[0] == "" {
			return bad("region wants one value")
		}
	}
	return URL{Scheme: SchemeDynamo, Table: u.Host, Region: q.Get("region")}, nil
}

// String renders the URL as ParseURL reads it.
func (u URL) String() string {
	switch u.Scheme {
	case SchemeFile:
		return "file://" + u.Dir
	case SchemeDynamo:
		if u.Region != "" {
			return "dynamodb://" + u.Table + "?region=" + u.Region
		}
		return "dynamodb://" + u.Table
	}
	return ""
}

// validTable reports whether name is a DynamoDB table name.
func validTable(name string) bool {
	if len(name) < 3 || len(name) > 255 {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}

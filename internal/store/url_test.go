package store_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/store"
)

// TestParseURL: the two schemes parse to their parts and print back the
// same; everything else is an error naming the value.
func TestParseURL(t *testing.T) {
	good := []struct {
		raw  string
		want store.URL
	}{
		{"dynamodb://realdrift", store.URL{Scheme: store.SchemeDynamo, Table: "realdrift"}},
		{"dynamodb://realdrift-prod.v2?region=eu-west-1", store.URL{Scheme: store.SchemeDynamo, Table: "realdrift-prod.v2", Region: "eu-west-1"}},
		{"file://.realdrift", store.URL{Scheme: store.SchemeFile, Dir: ".realdrift"}},
		{"file:///srv/state", store.URL{Scheme: store.SchemeFile, Dir: "/srv/state"}},
	}
	for _, c := range good {
		got, err := store.ParseURL(c.raw)
		if err != nil || got != c.want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", c.raw, got, err, c.want)
			continue
		}
		if got.String() != c.raw {
			t.Errorf("%+v prints %q, want %q", got, got.String(), c.raw)
		}
	}
	for _, raw := range []string{
		"", "realdrift", ".realdrift", "s3://bucket", "dynamodb://", "dynamodb:///t", "dynamodb://t/x",
		"dynamodb://ab", "dynamodb://bad$name", "dynamodb://table?profile=a", "dynamodb://table?region=",
		"dynamodb://table?region=a&region=b", "dynamodb://table#x", "dynamodb://u@table", "file://", "file://dir?x=1",
	} {
		got, err := store.ParseURL(raw)
		if err == nil {
			t.Errorf("ParseURL(%q) = %+v, want an error", raw, got)
			continue
		}
		if !strings.Contains(err.Error(), "dynamodb://TABLE") {
			t.Errorf("ParseURL(%q): %v; want the syntax named", raw, err)
		}
	}
}

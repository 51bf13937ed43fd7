package wire_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// TestPaging: a request's size is checked against the operation's bounds
// (or taken as given, below 1 the default, where it refuses none), its
// token must be one the operation issued, and each page's token leads to
// the next until the last page, which has none.
func TestPaging(t *testing.T) {
	errSize, errToken := errors.New("size"), errors.New("token")
	bounded := wire.Paging{Prefix: "p", Default: 2, Min: 2, Max: 3,
		BadSize: func(string) error { return errSize }, BadToken: errToken}
	open := wire.Paging{Prefix: "p", Default: 2, BadToken: errToken}
	type page struct {
		Lo, Hi int
		Next   string
	}
	for _, tt := range []struct {
		name        string
		p           wire.Paging
		size, token string
		want        page
		wantErr     error
	}{
		{"default size", bounded, "", "", page{0, 2, wire.PageToken("p", 2)}, nil},
		{"given size", bounded, "3", "", page{0, 3, wire.PageToken("p", 3)}, nil},
		{"second page", bounded, "3", wire.PageToken("p", 3), page{3, 5, ""}, nil},
		{"below the smallest", bounded, "1", "", page{}, errSize},
		{"above the largest", bounded, "4", "", page{}, errSize},
		{"not a number", bounded, "x", "", page{}, errSize},
		{"another operation's token", bounded, "", wire.PageToken("q", 2), page{}, errToken},
		{"not a token", bounded, "", "p-zz", page{}, errToken},
		{"no bounds: negative is the default", open, "-1", "", page{0, 2, wire.PageToken("p", 2)}, nil},
		{"no bounds: not a number is the default", open, "x", "", page{0, 2, wire.PageToken("p", 2)}, nil},
		{"no bounds: any size", open, "9", "", page{0, 5, ""}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cur, err := tt.p.StartText(tt.size, tt.token)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("StartText(%q, %q) error = %v, want %v", tt.size, tt.token, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			var got page
			got.Lo, got.Hi, got.Next = cur.Cut(5)
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("Cut(5) (-got +want):\n%s", d)
			}
		})
	}
}

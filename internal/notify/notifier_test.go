package notify

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// recorder is a hand-written Sender that records what it was asked to send.
type recorder struct {
	name string
	err  error
	got  []Event
}

func (r *recorder) Send(ctx context.Context, s Summary) error {
	r.got = append(r.got, s.Event)
	return r.err
}

func TestNotifier(t *testing.T) {
	fs := baseFindings()
	tests := []struct {
		name     string
		prev     string
		findings bool
		want     Event
	}{
		{"first drift", "", true, EventDetected},
		{"unchanged drift", Fingerprint(fs), true, EventNone},
		{"changed drift", "older", true, EventDetected},
		{"resolved", Fingerprint(fs), false, EventResolved},
		{"still clean", "", false, EventNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cur = fs[3:] // informational only
			if tc.findings {
				cur = fs
			}
			s := Summarize(shop, "run", at, cur, tc.prev)
			a := &recorder{name: "a", err: errors.New("channel a down")}
			b := &recorder{name: "b"}
			sent, err := New(a, b).Notify(t.Context(), s)
			if sent != (tc.want != EventNone) {
				t.Errorf("sent = %v, want %v", sent, tc.want != EventNone)
			}
			if tc.want == EventNone {
				if err != nil || len(a.got)+len(b.got) != 0 {
					t.Errorf("unchanged: err %v, sends %v %v", err, a.got, b.got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "channel a down") {
				t.Errorf("error %v, want channel a's failure", err)
			}
			if len(b.got) != 1 || b.got[0] != tc.want {
				t.Errorf("channel b got %v, want [%v] despite channel a failing", b.got, tc.want)
			}
		})
	}
}

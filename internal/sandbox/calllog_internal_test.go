package sandbox

import (
	"net/http"
	"strconv"
	"testing"
)

func TestCallLogRingAndInFlight(t *testing.T) {
	l := newCallLog()
	outer := l.begin("1", "us-east-1", "sts", "Outer", 2)
	for i := range recentCalls + 5 {
		l.begin("1", "us-east-1", "sts", "A"+strconv.Itoa(i), 1)(200, "")
	}
	outer(400, "Throttling")
	st := l.stats()
	if st.Total != recentCalls+6 || st.MaxInFlight != 2 || st.InFlight != 0 {
		t.Errorf("total %d max %d in flight %d", st.Total, st.MaxInFlight, st.InFlight)
	}
	if len(st.Recent) != recentCalls {
		t.Fatalf("recent %d", len(st.Recent))
	}
	if st.Recent[0].Action != "A6" || st.Recent[recentCalls-1].Action != "Outer" {
		t.Errorf("ring order: first %s last %s", st.Recent[0].Action, st.Recent[recentCalls-1].Action)
	}
	if st.Errors["sts:Outer:Throttling"] != 1 || st.Counts["sts:A0"] != 1 {
		t.Errorf("counts %v errors %v", st.Counts["sts:A0"], st.Errors)
	}
	if st.Requests["sts:A0"] != 1 || st.Retries["sts:Outer"] != 1 || st.Requests["sts:Outer"] != 0 || st.Recent[recentCalls-1].Attempt != 2 {
		t.Errorf("requests %v retries %v", st.Requests["sts:A0"], st.Retries)
	}
	l.reset()
	if st := l.stats(); st.Total != 0 || len(st.Recent) != 0 || len(st.Requests) != 0 || len(st.Retries) != 0 {
		t.Errorf("after reset: %+v", st)
	}
}

func TestSDKAttempt(t *testing.T) {
	for in, want := range map[string]int{
		"attempt=1; max=3":                  1,
		"attempt=4; max=10; ttl=20260101T0": 4,
		"ttl=x; attempt=2":                  2,
		"":                                  0,
		"attempt=x; max=3":                  0,
		"attempt=0":                         0,
	} {
		h := http.Header{}
		h.Set("amz-sdk-request", in)
		if got := sdkAttempt(h); got != want {
			t.Errorf("sdkAttempt(%q) = %d, want %d", in, got, want)
		}
	}
}

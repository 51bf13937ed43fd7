package sandbox

import (
	"strconv"
	"testing"
)

func TestCallLogRingAndInFlight(t *testing.T) {
	l := newCallLog()
	outer := l.begin("1", "us-east-1", "sts", "Outer")
	for i := range recentCalls + 5 {
		l.begin("1", "us-east-1", "sts", "A"+strconv.Itoa(i))(200, "")
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
	l.reset()
	if st := l.stats(); st.Total != 0 || len(st.Recent) != 0 {
		t.Errorf("after reset: %+v", st)
	}
}

package cloudtrail

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// maxResults is LookupEvents' page size limit (and default).
const maxResults = 50

// attributeKeys are LookupEvents' attribute keys and what each matches.
var attributeKeys = map[string]func(ev *world.TrailEvent, v string) bool{
	"EventId":     func(ev *world.TrailEvent, v string) bool { return ev.EventID == v },
	"EventName":   func(ev *world.TrailEvent, v string) bool { return ev.EventName == v },
	"ReadOnly":    func(ev *world.TrailEvent, v string) bool { return strconv.FormatBool(ev.ReadOnly) == v },
	"Username":    func(ev *world.TrailEvent, v string) bool { return ev.Identity.Username() == v },
	"EventSource": func(ev *world.TrailEvent, v string) bool { return ev.EventSource == v },
	"AccessKeyId": func(ev *world.TrailEvent, v string) bool { return ev.Identity.AccessKeyID == v },
	"ResourceType": func(ev *world.TrailEvent, v string) bool {
		for _, r := range ev.Resources {
			if r.Type == v {
				return true
			}
		}
		return false
	},
	"ResourceName": func(ev *world.TrailEvent, v string) bool {
		for _, r := range ev.Resources {
			if r.Name == v {
				return true
			}
		}
		return false
	},
}

type lookupAttribute struct {
	AttributeKey   string
	AttributeValue string
}

type resource struct {
	ResourceType string `json:",omitempty"`
	ResourceName string `json:",omitempty"`
}

type event struct {
	EventId         string
	EventName       string
	ReadOnly        string
	AccessKeyId     string `json:",omitempty"`
	EventTime       float64
	EventSource     string
	Username        string `json:",omitempty"`
	Resources       []resource
	CloudTrailEvent string
}

type output struct {
	Events    []event
	NextToken string `json:",omitempty"`
}

// lookupEvents serves LookupEvents (see doc.go for its rules).
func lookupEvents(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		LookupAttributes   []lookupAttribute
		StartTime, EndTime *float64
		EventCategory      *string
		MaxResults         *int
		NextToken          *string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	now := c.Now()
	var match func(*world.TrailEvent, string) bool
	value := ""
	switch len(in.LookupAttributes) {
	case 0:
	case 1:
		a := in.LookupAttributes[0]
		match = attributeKeys[a.AttributeKey]
		if match == nil {
			return nil, wire.Errf(400, "InvalidLookupAttributesException", "%s is not a valid lookup attribute key.", a.AttributeKey)
		}
		if a.AttributeValue == "" || len(a.AttributeValue) > 2000 {
			return nil, wire.Errf(400, "InvalidLookupAttributesException", "The lookup attribute value must be 1 to 2000 characters.")
		}
		value = a.AttributeValue
	default:
		return nil, wire.Errf(400, "InvalidLookupAttributesException", "You cannot specify more than one lookup attribute.")
	}
	if in.EventCategory != nil && *in.EventCategory != "insight" {
		return nil, wire.Errf(400, "InvalidEventCategoryException", "The event category %q is not valid.", *in.EventCategory)
	}
	size := maxResults
	if in.MaxResults != nil {
		if *in.MaxResults < 1 || *in.MaxResults > maxResults {
			return nil, wire.Errf(400, "InvalidMaxResultsException", "MaxResults must be between 1 and 50.")
		}
		size = *in.MaxResults
	}
	oldest := now.Add(-world.TrailRetention)
	start, end := oldest, now
	if in.StartTime != nil {
		start = epoch(*in.StartTime)
	}
	if in.EndTime != nil {
		end = epoch(*in.EndTime)
	}
	if start.After(end) {
		return nil, wire.Errf(400, "InvalidTimeRangeException", "Start time must be before end time.")
	}
	if start.Before(oldest) {
		start = oldest
	}
	// A token resumes after an event and holds only for the parameters
	// that made it.
	params := fmt.Sprintf("%v|%v|%s|%s", fmtTime(in.StartTime), fmtTime(in.EndTime), lookupKey(in.LookupAttributes), value)
	after := math.MaxInt
	if in.NextToken != nil {
		seq, ok := parseToken(*in.NextToken, params)
		if !ok {
			return nil, wire.Errf(400, "InvalidNextTokenException", "Invalid NextToken.")
		}
		after = seq
	}
	out := output{Events: []event{}}
	if in.EventCategory != nil {
		return out, nil // the sandbox records no Insights events
	}
	st.RLock()
	evs := st.Trail.Events(func(ev *world.TrailEvent) bool {
		return ev.Seq < after && ev.Account == c.Account && ev.Region == c.Region &&
			!ev.Time.Before(start) && !ev.Time.After(end) && (match == nil || match(ev, value))
	})
	st.RUnlock()
	for i, ev := range evs {
		if i == size {
			out.NextToken = token(evs[i-1].Seq, params)
			break
		}
		out.Events = append(out.Events, wireEvent(ev))
	}
	return out, nil
}

func wireEvent(ev world.TrailEvent) event {
	e := event{
		EventId: ev.EventID, EventName: ev.EventName, ReadOnly: strconv.FormatBool(ev.ReadOnly),
		AccessKeyId: ev.Identity.AccessKeyID, EventTime: float64(ev.Time.UnixMilli()) / 1000,
		EventSource: ev.EventSource, Username: ev.Identity.Username(), Resources: []resource{},
		CloudTrailEvent: string(ev.Record()),
	}
	for _, r := range ev.Resources {
		e.Resources = append(e.Resources, resource{ResourceType: r.Type, ResourceName: r.Name})
	}
	return e
}

func epoch(sec float64) time.Time {
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC()
}

func fmtTime(t *float64) string {
	if t == nil {
		return "-"
	}
	return strconv.FormatFloat(*t, 'f', -1, 64)
}

func lookupKey(as []lookupAttribute) string {
	if len(as) == 0 {
		return ""
	}
	return as[0].AttributeKey
}

// token is a NextToken: the sequence number to resume before and a hash of
// the parameters it holds for.
func token(seq int, params string) string {
	sum := sha256.Sum256([]byte(params))
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(seq) + ":" + hex.EncodeToString(sum[:8])))
}

func parseToken(tok, params string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, false
	}
	seqText, hash, ok := strings.Cut(string(b), ":")
	sum := sha256.Sum256([]byte(params))
	if !ok || hash != hex.EncodeToString(sum[:8]) {
		return 0, false
	}
	seq, err := strconv.Atoi(seqText)
	if err != nil || seq < 1 {
		return 0, false
	}
	return seq, true
}

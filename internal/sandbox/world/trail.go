package world

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// TrailRetention is how long the trail keeps an event: LookupEvents covers
// the last 90 days.
const TrailRetention = 90 * 24 * time.Hour

// TrailCap bounds the events the trail keeps (the oldest go first), so a
// long benchmark cannot grow it without limit.
const TrailCap = 100_000

// TrailEvent is one CloudTrail management event the sandbox recorded: a
// write it served or an admin change.
type TrailEvent struct {
	// Seq orders events (it grows with every record); EventID is derived
	// from it.
	Seq         int
	EventID     string
	EventName   string
	EventSource string // "sqs.amazonaws.com"
	Time        time.Time
	Account     string
	Region      string
	Identity    TrailIdentity
	SourceIP    string
	UserAgent   string
	ReadOnly    bool
	ErrorCode   string
	ErrorMsg    string
	RequestID   string
	// Params is requestParameters (a JSON object, sensitive values hidden).
	Params    json.RawMessage
	Resources []TrailResource
}

// TrailIdentity is an event's userIdentity.
type TrailIdentity struct {
	Type        string // IAMUser, AssumedRole, Root
	PrincipalID string
	ARN         string
	AccountID   string
	AccessKeyID string
	UserName    string // IAM user name; "" for roles and root
	// RoleARN and RoleName name the session issuer of an assumed role.
	RoleARN, RoleName string
	SessionName       string
	SourceIdentity    string
}

// TrailResource is a resource an event names (LookupEvents' ResourceName
// and ResourceType).
type TrailResource struct {
	Type string
	Name string
}

// IdentityOf is the userIdentity of a principal calling with an access key.
func IdentityOf(p Principal, accessKey string) TrailIdentity {
	id := TrailIdentity{PrincipalID: p.UserID, ARN: p.ARN, AccountID: p.Account, AccessKeyID: accessKey, SourceIdentity: p.SourceIdentity}
	switch {
	case p.Role != "":
		id.Type = "AssumedRole"
		id.RoleName = p.Role
		id.RoleARN = "arn:aws:iam::" + p.Account + ":role/" + p.Role
		id.SessionName = p.session
	case strings.HasSuffix(p.ARN, ":root"):
		id.Type = "Root"
	default:
		id.Type = "IAMUser"
		id.UserName = p.ARN[strings.LastIndexByte(p.ARN, '/')+1:]
	}
	return id
}

// Username is what LookupEvents' Username attribute matches: the IAM
// user's name, the role session name, or "root".
func (id TrailIdentity) Username() string {
	switch id.Type {
	case "AssumedRole":
		return id.SessionName
	case "Root":
		return "root"
	}
	return id.UserName
}

// Trail is the sandbox's own CloudTrail: the management events it
// recorded, oldest first. The State's lock guards it.
type Trail struct {
	events []TrailEvent
	seq    int
}

// Record appends ev, giving it its sequence number and event id, and drops
// events past the retention (relative to ev's time) and the cap. The
// caller holds the write lock.
func (t *Trail) Record(ev TrailEvent) TrailEvent {
	t.seq++
	ev.Seq = t.seq
	ev.EventID = UUIDFrom("trail-event/" + ev.Account + "/" + strconv.Itoa(t.seq))
	t.events = append(t.events, ev)
	drop := 0
	for drop < len(t.events) && (len(t.events)-drop > TrailCap || ev.Time.Sub(t.events[drop].Time) > TrailRetention) {
		drop++
	}
	t.events = t.events[drop:] // append reallocates, freeing what was dropped
	return ev
}

// Events returns the events for which keep is true, most recent first (as
// LookupEvents lists them). The caller holds the read lock.
func (t *Trail) Events(keep func(*TrailEvent) bool) []TrailEvent {
	var out []TrailEvent
	for i := len(t.events) - 1; i >= 0; i-- {
		if keep(&t.events[i]) {
			out = append(out, t.events[i])
		}
	}
	return out
}

// Len is the number of events kept.
func (t *Trail) Len() int { return len(t.events) }

// Since returns the events recorded after sequence number seq, oldest
// first. The caller holds the read lock.
func (t *Trail) Since(seq int) []TrailEvent {
	i := len(t.events)
	for i > 0 && t.events[i-1].Seq > seq {
		i--
	}
	return append([]TrailEvent(nil), t.events[i:]...)
}

// record is the JSON form of a CloudTrail event record (the
// CloudTrailEvent string of LookupEvents, the detail EventBridge carries).
type record struct {
	EventVersion       string          `json:"eventVersion"`
	UserIdentity       userIdentity    `json:"userIdentity"`
	EventTime          string          `json:"eventTime"`
	EventSource        string          `json:"eventSource"`
	EventName          string          `json:"eventName"`
	AWSRegion          string          `json:"awsRegion"`
	SourceIPAddress    string          `json:"sourceIPAddress"`
	UserAgent          string          `json:"userAgent"`
	ErrorCode          string          `json:"errorCode,omitempty"`
	ErrorMessage       string          `json:"errorMessage,omitempty"`
	RequestParameters  json.RawMessage `json:"requestParameters"`
	ResponseElements   json.RawMessage `json:"responseElements"`
	RequestID          string          `json:"requestID,omitempty"`
	EventID            string          `json:"eventID"`
	ReadOnly           bool            `json:"readOnly"`
	Resources          []recordRes     `json:"resources,omitempty"`
	EventType          string          `json:"eventType"`
	ManagementEvent    bool            `json:"managementEvent"`
	RecipientAccountID string          `json:"recipientAccountId"`
	EventCategory      string          `json:"eventCategory"`
}

type userIdentity struct {
	Type           string          `json:"type"`
	PrincipalID    string          `json:"principalId"`
	ARN            string          `json:"arn"`
	AccountID      string          `json:"accountId"`
	AccessKeyID    string          `json:"accessKeyId,omitempty"`
	UserName       string          `json:"userName,omitempty"`
	SessionContext *sessionContext `json:"sessionContext,omitempty"`
}

type sessionContext struct {
	SessionIssuer  sessionIssuer     `json:"sessionIssuer"`
	Attributes     map[string]string `json:"attributes"`
	SourceIdentity string            `json:"sourceIdentity,omitempty"`
}

type sessionIssuer struct {
	Type        string `json:"type"`
	PrincipalID string `json:"principalId"`
	ARN         string `json:"arn"`
	AccountID   string `json:"accountId"`
	UserName    string `json:"userName"`
}

type recordRes struct {
	ARN       string `json:"ARN,omitempty"`
	Name      string `json:"name,omitempty"`
	AccountID string `json:"accountId"`
	Type      string `json:"type,omitempty"`
}

// TrailTime is how CloudTrail writes eventTime.
const TrailTime = "2006-01-02T15:04:05Z"

// Record returns the event as a CloudTrail record (JSON).
func (ev TrailEvent) Record() json.RawMessage {
	id := ev.Identity
	ui := userIdentity{Type: id.Type, PrincipalID: id.PrincipalID, ARN: id.ARN, AccountID: id.AccountID, AccessKeyID: id.AccessKeyID, UserName: id.UserName}
	if id.Type == "AssumedRole" {
		roleID, _, _ := strings.Cut(id.PrincipalID, ":")
		ui.SessionContext = &sessionContext{
			SessionIssuer:  sessionIssuer{Type: "Role", PrincipalID: roleID, ARN: id.RoleARN, AccountID: id.AccountID, UserName: id.RoleName},
			Attributes:     map[string]string{"mfaAuthenticated": "false"},
			SourceIdentity: id.SourceIdentity,
		}
	}
	params := ev.Params
	if len(params) == 0 {
		params = json.RawMessage("null")
	}
	r := record{
		EventVersion: "1.09", UserIdentity: ui, EventTime: ev.Time.UTC().Format(TrailTime),
		EventSource: ev.EventSource, EventName: ev.EventName, AWSRegion: ev.Region,
		SourceIPAddress: ev.SourceIP, UserAgent: ev.UserAgent, ErrorCode: ev.ErrorCode, ErrorMessage: ev.ErrorMsg,
		RequestParameters: params, ResponseElements: json.RawMessage("null"), RequestID: ev.RequestID,
		EventID: ev.EventID, ReadOnly: ev.ReadOnly, EventType: "AwsApiCall", ManagementEvent: true,
		RecipientAccountID: ev.Account, EventCategory: "Management",
	}
	for _, res := range ev.Resources {
		rr := recordRes{AccountID: ev.Account, Type: res.Type}
		if strings.HasPrefix(res.Name, "arn:") {
			rr.ARN = res.Name
		} else {
			rr.Name = res.Name
		}
		r.Resources = append(r.Resources, rr)
	}
	b, _ := MarshalNoEscape(r)
	return b
}

package wire

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// protocol is an AWS wire protocol.
type protocol int

const (
	ProtoQuery    protocol = iota // form POST, XML replies (CloudFormation, STS, SNS, IAM)
	ProtoJSON                     // JSON 1.0 / 1.1 with X-Amz-Target
	ProtoRESTXML                  // S3
	ProtoRESTJSON                 // Lambda
	ProtoEC2                      // form POST, EC2's own XML replies and errors
	ProtoCBOR                     // Smithy RPCv2 CBOR (CloudWatch), routed by path (cbor.go)
)

// apiError is an error answered to the client in its protocol's shape.
type Error struct {
	Status  int
	Code    string
	Message string
	// Receiver marks a server-side fault (query "Type").
	Receiver bool
	// QueryCode is the query-compatible code JSON services that moved from
	// the query protocol (SQS) also send.
	QueryCode string
	// Extra are REST-XML error fields (S3 BucketName).
	Extra map[string]string
}

// queryFault is the error as the query protocol types it: its fault
// ("Sender", or "Receiver" for a server-side fault) and its code (the
// query-compatible code where it has one).
func (e *Error) queryFault() (kind, code string) {
	kind, code = "Sender", e.Code
	if e.Receiver {
		kind = "Receiver"
	}
	if e.QueryCode != "" {
		code = e.QueryCode
	}
	return kind, code
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func Errf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// validation is the query services' input error.
func Validation(format string, args ...any) *Error {
	return Errf(400, "ValidationError", format, args...)
}

// raw is a REST reply whose body the handler shaped itself.
type Raw struct {
	Status      int
	ContentType string
	Body        []byte
}

// xnode is a minimal XML element for query and REST-XML replies.
type Node struct {
	Name string
	text *string
	Kids []*Node
}

func El(name string, kids ...*Node) *Node {
	var ks []*Node
	for _, k := range kids {
		if k != nil {
			ks = append(ks, k)
		}
	}
	return &Node{Name: name, Kids: ks}
}

func Tx(name, text string) *Node { return &Node{Name: name, text: &text} }

// opt is tx for an optional value: nil when text is empty.
func Opt(name, text string) *Node {
	if text == "" {
		return nil
	}
	return Tx(name, text)
}

func Bool(name string, b bool) *Node { return Tx(name, strconv.FormatBool(b)) }

func Time(name string, t time.Time) *Node { return Tx(name, ISOTime(t)) }

// members is a query list: <name><member>...</member></name>.
func Members(name string, items []*Node) *Node {
	n := &Node{Name: name}
	for _, it := range items {
		it.Name = "member"
		n.Kids = append(n.Kids, it)
	}
	return n
}

func (n *Node) Write(b *bytes.Buffer) {
	b.WriteByte('<')
	b.WriteString(n.Name)
	b.WriteByte('>')
	if n.text != nil {
		_ = xml.EscapeText(b, []byte(*n.text))
	}
	for _, k := range n.Kids {
		k.Write(b)
	}
	b.WriteString("</")
	b.WriteString(n.Name)
	b.WriteByte('>')
}

func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// epoch is a JSON protocol timestamp (seconds since the epoch).
func Epoch(t time.Time) json.Number {
	return json.Number(strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', -1, 64))
}

func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// writeQuery writes a query-protocol success reply.
func WriteQuery(w http.ResponseWriter, svc *Service, action, reqID string, result *Node) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, action, svc.XMLNS)
	if result != nil {
		result.Name = action + "Result"
		result.Write(&b)
	}
	El("ResponseMetadata", Tx("RequestId", reqID)).Write(&b)
	fmt.Fprintf(&b, `</%sResponse>`, action)
	w.Header().Set("Content-Type", "text/xml")
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(b.Bytes())
}

// writeError writes e in the service's protocol shape.
func WriteError(w http.ResponseWriter, svc *Service, reqID string, e *Error) {
	h := w.Header()
	h.Set("x-amzn-RequestId", reqID)
	status := e.Status
	if status == 0 {
		status = 400
	}
	proto := ProtoQuery
	if svc != nil {
		proto = svc.Protocol
	}
	switch proto {
	case ProtoEC2:
		writeEC2Error(w, reqID, status, e)
	case ProtoCBOR:
		writeCBORError(w, svc, status, e)
	case ProtoJSON:
		ns := "com.amazonaws.sandbox#"
		if svc != nil {
			ns = svc.JSONNamespace
		}
		h.Set("Content-Type", "application/x-amz-json-1.0")
		h.Set("X-Amzn-Errortype", e.Code)
		if e.QueryCode != "" {
			kind := "Sender"
			if e.Receiver {
				kind = "Receiver"
			}
			h.Set("x-amzn-query-error", e.QueryCode+";"+kind)
		}
		body, _ := world.MarshalNoEscape(map[string]string{"__type": ns + e.Code, "message": e.Message})
		w.WriteHeader(status)
		_, _ = w.Write(body)
	case ProtoRESTJSON:
		h.Set("Content-Type", "application/json")
		h.Set("X-Amzn-Errortype", e.Code)
		kind := "User"
		if e.Receiver {
			kind = "Service"
		}
		body, _ := world.MarshalNoEscape(map[string]string{"Type": kind, "message": e.Message})
		w.WriteHeader(status)
		_, _ = w.Write(body)
	case ProtoRESTXML:
		var b bytes.Buffer
		b.WriteString(xml.Header)
		if svc != nil && svc.WrapErrors {
			kind := "Sender"
			if e.Receiver {
				kind = "Receiver"
			}
			fmt.Fprintf(&b, `<ErrorResponse xmlns="%s">`, svc.XMLNS)
			El("Error", Tx("Type", kind), Tx("Code", e.Code), Tx("Message", e.Message)).Write(&b)
			Tx("RequestId", reqID).Write(&b)
			b.WriteString(`</ErrorResponse>`)
			h.Set("Content-Type", "text/xml")
			w.WriteHeader(status)
			_, _ = w.Write(b.Bytes())
			return
		}
		n := El("Error", Tx("Code", e.Code), Tx("Message", e.Message))
		for _, k := range world.SortedKeys(e.Extra) {
			n.Kids = append(n.Kids, Tx(k, e.Extra[k]))
		}
		n.Kids = append(n.Kids, Tx("RequestId", reqID), Tx("HostId", HostID(reqID)))
		n.Write(&b)
		h.Set("Content-Type", "application/xml")
		h.Set("x-amz-request-id", reqID)
		h.Set("x-amz-id-2", HostID(reqID))
		w.WriteHeader(status)
		_, _ = w.Write(b.Bytes())
	default:
		ns := ""
		if svc != nil {
			ns = svc.XMLNS
		}
		kind, code := e.queryFault()
		var b bytes.Buffer
		b.WriteString(xml.Header)
		fmt.Fprintf(&b, `<ErrorResponse xmlns="%s">`, ns)
		El("Error", Tx("Type", kind), Tx("Code", code), Tx("Message", e.Message)).Write(&b)
		Tx("RequestId", reqID).Write(&b)
		b.WriteString(`</ErrorResponse>`)
		h.Set("Content-Type", "text/xml")
		w.WriteHeader(status)
		_, _ = w.Write(b.Bytes())
	}
}

func HostID(reqID string) string { return strings.ReplaceAll(reqID, "-", "") }

// writeJSON writes a JSON success reply.
func WriteJSON(w http.ResponseWriter, svc *Service, reqID string, v any) {
	body, err := world.MarshalNoEscape(v)
	if err != nil {
		WriteError(w, svc, reqID, &Error{Status: 500, Code: "InternalFailure", Message: err.Error(), Receiver: true})
		return
	}
	ct := "application/json"
	if svc.Protocol == ProtoJSON {
		ct = "application/x-amz-json-" + svc.JSONVersion
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(body)
}

// page slices n items from offset; next is the following offset or -1.
func Page(total, offset, size int) (lo, hi, next int) {
	if offset > total {
		offset = total
	}
	hi = offset + size
	if hi >= total {
		return offset, total, -1
	}
	return offset, hi, hi
}

// writeEC2 writes an EC2-protocol success reply: the result's children
// directly under <ActionResponse>, after the requestId.
func WriteEC2(w http.ResponseWriter, svc *Service, action, reqID string, result *Node) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, action, svc.XMLNS)
	Tx("requestId", reqID).Write(&b)
	if result != nil {
		for _, k := range result.Kids {
			k.Write(&b)
		}
	}
	fmt.Fprintf(&b, `</%sResponse>`, action)
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(b.Bytes())
}

// writeEC2Error writes an EC2-protocol error.
func writeEC2Error(w http.ResponseWriter, reqID string, status int, e *Error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString("<Response><Errors>")
	El("Error", Tx("Code", e.Code), Tx("Message", e.Message)).Write(&b)
	b.WriteString("</Errors>")
	Tx("RequestID", reqID).Write(&b)
	b.WriteString("</Response>")
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// NotEmulated is the error code of a request for a service or operation
// the sandbox does not serve. It answers in the protocol the request
// speaks, so every client parses it as an API error (never a wire-format
// failure), and is logged and delayed like any served call.
const NotEmulated = "NotEmulated"

// Add appends the non-nil kids.
func (n *Node) Add(kids ...*Node) {
	for _, k := range kids {
		if k != nil {
			n.Kids = append(n.Kids, k)
		}
	}
}

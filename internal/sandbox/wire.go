package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// protocol is an AWS wire protocol.
type protocol int

const (
	protoQuery    protocol = iota // form POST, XML replies (CloudFormation, STS, SNS, IAM)
	protoJSON                     // JSON 1.0 / 1.1 with X-Amz-Target
	protoRESTXML                  // S3
	protoRESTJSON                 // Lambda
	protoEC2                      // form POST, EC2's own XML replies and errors
	protoCBOR                     // Smithy RPCv2 CBOR (CloudWatch), routed by path (cbor.go)
)

// apiError is an error answered to the client in its protocol's shape.
type apiError struct {
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

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// validation is the query services' input error.
func validation(format string, args ...any) *apiError {
	return errf(400, "ValidationError", format, args...)
}

// raw is a REST reply whose body the handler shaped itself.
type raw struct {
	status      int
	contentType string
	body        []byte
}

// xnode is a minimal XML element for query and REST-XML replies.
type xnode struct {
	name string
	text *string
	kids []*xnode
}

func el(name string, kids ...*xnode) *xnode {
	var ks []*xnode
	for _, k := range kids {
		if k != nil {
			ks = append(ks, k)
		}
	}
	return &xnode{name: name, kids: ks}
}

func tx(name, text string) *xnode { return &xnode{name: name, text: &text} }

// opt is tx for an optional value: nil when text is empty.
func opt(name, text string) *xnode {
	if text == "" {
		return nil
	}
	return tx(name, text)
}

func xbool(name string, b bool) *xnode { return tx(name, strconv.FormatBool(b)) }

func xtime(name string, t time.Time) *xnode { return tx(name, isoTime(t)) }

// members is a query list: <name><member>...</member></name>.
func members(name string, items []*xnode) *xnode {
	n := &xnode{name: name}
	for _, it := range items {
		it.name = "member"
		n.kids = append(n.kids, it)
	}
	return n
}

func (n *xnode) write(b *bytes.Buffer) {
	b.WriteByte('<')
	b.WriteString(n.name)
	b.WriteByte('>')
	if n.text != nil {
		_ = xml.EscapeText(b, []byte(*n.text))
	}
	for _, k := range n.kids {
		k.write(b)
	}
	b.WriteString("</")
	b.WriteString(n.name)
	b.WriteByte('>')
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// epoch is a JSON protocol timestamp (seconds since the epoch).
func epoch(t time.Time) json.Number {
	return json.Number(strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', -1, 64))
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// writeQuery writes a query-protocol success reply.
func writeQuery(w http.ResponseWriter, svc *service, action, reqID string, result *xnode) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, action, svc.xmlns)
	if result != nil {
		result.name = action + "Result"
		result.write(&b)
	}
	el("ResponseMetadata", tx("RequestId", reqID)).write(&b)
	fmt.Fprintf(&b, `</%sResponse>`, action)
	w.Header().Set("Content-Type", "text/xml")
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(b.Bytes())
}

// writeError writes e in the service's protocol shape.
func writeError(w http.ResponseWriter, svc *service, reqID string, e *apiError) {
	h := w.Header()
	h.Set("x-amzn-RequestId", reqID)
	status := e.Status
	if status == 0 {
		status = 400
	}
	proto := protoQuery
	if svc != nil {
		proto = svc.protocol
	}
	switch proto {
	case protoEC2:
		writeEC2Error(w, reqID, status, e)
	case protoCBOR:
		writeCBORError(w, svc, status, e)
	case protoJSON:
		ns := "com.amazonaws.sandbox#"
		if svc != nil {
			ns = svc.jsonNamespace
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
	case protoRESTJSON:
		h.Set("Content-Type", "application/json")
		h.Set("X-Amzn-Errortype", e.Code)
		kind := "User"
		if e.Receiver {
			kind = "Service"
		}
		body, _ := world.MarshalNoEscape(map[string]string{"Type": kind, "message": e.Message})
		w.WriteHeader(status)
		_, _ = w.Write(body)
	case protoRESTXML:
		var b bytes.Buffer
		b.WriteString(xml.Header)
		if svc != nil && svc.wrapErrors {
			kind := "Sender"
			if e.Receiver {
				kind = "Receiver"
			}
			fmt.Fprintf(&b, `<ErrorResponse xmlns="%s">`, svc.xmlns)
			el("Error", tx("Type", kind), tx("Code", e.Code), tx("Message", e.Message)).write(&b)
			tx("RequestId", reqID).write(&b)
			b.WriteString(`</ErrorResponse>`)
			h.Set("Content-Type", "text/xml")
			w.WriteHeader(status)
			_, _ = w.Write(b.Bytes())
			return
		}
		n := el("Error", tx("Code", e.Code), tx("Message", e.Message))
		for _, k := range world.SortedKeys(e.Extra) {
			n.kids = append(n.kids, tx(k, e.Extra[k]))
		}
		n.kids = append(n.kids, tx("RequestId", reqID), tx("HostId", hostID(reqID)))
		n.write(&b)
		h.Set("Content-Type", "application/xml")
		h.Set("x-amz-request-id", reqID)
		h.Set("x-amz-id-2", hostID(reqID))
		w.WriteHeader(status)
		_, _ = w.Write(b.Bytes())
	default:
		ns := ""
		if svc != nil {
			ns = svc.xmlns
		}
		kind := "Sender"
		if e.Receiver {
			kind = "Receiver"
		}
		code := e.Code
		if e.QueryCode != "" {
			code = e.QueryCode
		}
		var b bytes.Buffer
		b.WriteString(xml.Header)
		fmt.Fprintf(&b, `<ErrorResponse xmlns="%s">`, ns)
		el("Error", tx("Type", kind), tx("Code", code), tx("Message", e.Message)).write(&b)
		tx("RequestId", reqID).write(&b)
		b.WriteString(`</ErrorResponse>`)
		h.Set("Content-Type", "text/xml")
		w.WriteHeader(status)
		_, _ = w.Write(b.Bytes())
	}
}

func hostID(reqID string) string { return strings.ReplaceAll(reqID, "-", "") }

// writeJSON writes a JSON success reply.
func writeJSON(w http.ResponseWriter, svc *service, reqID string, v any) {
	body, err := world.MarshalNoEscape(v)
	if err != nil {
		writeError(w, svc, reqID, &apiError{Status: 500, Code: "InternalFailure", Message: err.Error(), Receiver: true})
		return
	}
	ct := "application/json"
	if svc.protocol == protoJSON {
		ct = "application/x-amz-json-" + svc.jsonVersion
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(body)
}

// pageToken encodes an offset as an opaque pagination token.
func pageToken(prefix string, offset int) string {
	return prefix + "-" + hex.EncodeToString([]byte(strconv.Itoa(offset)))
}

// pageOffset decodes a pagination token; "" is the first page.
func pageOffset(prefix, token string) (int, bool) {
	if token == "" {
		return 0, true
	}
	rest, ok := strings.CutPrefix(token, prefix+"-")
	if !ok {
		return 0, false
	}
	b, err := hex.DecodeString(rest)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(string(b))
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// page slices n items from offset; next is the following offset or -1.
func page(total, offset, size int) (lo, hi, next int) {
	if offset > total {
		offset = total
	}
	hi = offset + size
	if hi >= total {
		return offset, total, -1
	}
	return offset, hi, hi
}

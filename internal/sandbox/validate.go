package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// validate refuses a write whose input breaks the constraints AWS's model
// states for it (required members, types, enumerations, lengths, ranges,
// patterns: awsmodel.Table.Check), with the service's error for an
// invalid request (wire.Service.InvalidError), before its handler runs,
// as AWS's front end does. A query-form request to a JSON service that
// accepts query too (SQS) is read by the query model's names. nil when
// the input conforms.
func (s *Server) validate(c *wire.Call) *wire.Error {
	errs := s.inputs.Check(c.Service.Name+":"+c.Action, awsmodel.Request{Form: c.Form, Body: c.Body, Path: c.HTTP.URL.EscapedPath(), Header: c.HTTP.Header,
		Query: c.Service.QueryXMLNS != "" && c.Service.Protocol == wire.ProtoQuery})
	if len(errs) == 0 {
		return nil
	}
	e := c.Service.InvalidError()
	e.Message = awsmodel.Message(errs)
	return &e
}

// Package awsmodel reads AWS's own service models (botocore's
// service-2.json files, the models the AWS CLI is built from) and holds
// what the sandbox takes from them: the input constraints of every write
// operation it serves (Table, generated into inputs.json.gz and embedded),
// which the sandbox checks each request against before its handler runs,
// as AWS's front end does.
//
// Rules:
//   - Only derived facts are written: shape names, member names and
//     locations, types, required lists, enumerations, ranges, lengths and
//     patterns. Documentation and examples are never copied.
//   - A served operation is looked up in every model whose signing name
//     (or endpoint prefix) is the sandbox's service name and which
//     defines it; where two do (RDS's signing name serves DocumentDB and
//     Neptune too), the one named by the preference the caller gives wins.
//   - Check reads a request's input the way its protocol carries it: the
//     JSON body (JSON 1.0/1.1, and the body members of REST-JSON), the
//     form (query: Name.member.N lists, Name.entry.N.key maps; EC2:
//     capitalised location names, Name.N lists), the XML body of REST-XML
//     (elements by location name; lists of named items, or repeated
//     elements when flattened), and for both REST protocols the members
//     bound to the URI path (matched against the operation's request URI
//     template from the model; {Label+} takes the rest of the path), to
//     headers (by name; a "headers" map by prefix) and to the query
//     string. A query-form request to a JSON model marked
//     awsQueryCompatible (SQS) is read by the names of the last model of
//     the service that spoke query — botocore's no longer carries them —
//     taken from the AWS CLI v2's own botocore data (AWSCLI,
//     Table.AddQueryForms); building the table fails when a
//     query-compatible write has no such model. A blob or string payload, and a path that does not have the
//     template's shape, are not read, so never refused; a body that does
//     not parse is left to the handler. No served write speaks RPCv2 CBOR
//     (TestEveryServedWriteValidated fails when one does and Check cannot
//     read it).
//   - A pattern matches the whole value, as AWS's front ends match it. A
//     pattern Go's regexp cannot compile (after \uXXXX escapes are
//     rewritten) is not checked: a request is refused only for what is
//     known to break the model.
//   - The violations are reported as AWS's front ends word them ("1
//     validation error detected: Value null at 'roleName' failed to
//     satisfy constraint: Member must not be null"); the error code is the
//     service's (wire.Service.Invalid).
package awsmodel

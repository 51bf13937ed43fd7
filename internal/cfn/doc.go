// Package cfn is realdrift's CloudFormation template model: Parse reads a
// JSON or YAML template into a Template with its Parameters, Mappings,
// Conditions, Resources, Outputs, Rules, Metadata and Transform.
//
// Rules and invariants:
//   - One model for both formats. YAML short-form tags (!Ref, !Sub, !GetAtt,
//     !Join, …, !Condition) are rewritten at parse time into the JSON long
//     form ({"Ref": …}, {"Fn::Sub": …}, {"Condition": …}), so no later stage
//     ever sees a tag. `!GetAtt Res.Attr.Path` becomes
//     {"Fn::GetAtt": ["Res", "Attr.Path"]}. The one-to-one table of tags is
//     shortTags in yaml.go; an unknown "!Tag" is an error.
//   - Values are JSON-shaped: map[string]any, []any, string, float64, bool
//     and nil. YAML integers become float64 (so they compare with
//     encoding/json-decoded live models); YAML timestamps stay the string
//     they were written as; mapping keys are always strings (an unquoted
//     account id key stays "123456789012").
//   - Intrinsics are kept, not evaluated: Resource.Properties, Output.Value
//     and Template.Conditions hold the raw long-form tree. Resolution is the
//     job of package intrinsic.
//   - Malformed input is an *Error naming its location and never a panic:
//     a JSON syntax error names line, column and byte offset; a YAML error
//     names line:column; a model error names the template path, e.g.
//     "Resources.Bucket.Type: must be a string". Duplicate keys are errors in
//     both formats, as are bytes that are not UTF-8 (JSON names the first
//     one's place too), NaN/Inf numbers, nesting deeper than maxDepth, a
//     second YAML document, YAML merge keys (<<), and YAML alias expansion
//     beyond a budget proportional to the input's size.
//   - Sections the model does not know are kept in Template.Raw, untouched.
//   - The package does no I/O and holds no mutable globals.
package cfn

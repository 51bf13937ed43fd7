package glue

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Glue (JSON 1.1, PascalCase): classifiers and
// workflows by name from the world's AWS::Glue::Classifier (its one
// CsvClassifier / GrokClassifier / JsonClassifier / XMLClassifier's Name,
// else the identifier) and AWS::Glue::Workflow (Name, else the identifier)
// models, answered as the model holds them (the API's shape is the
// template's); a workflow's Tags map is what GetTags answers for its ARN.
// A name Glue does not know is EntityNotFoundException.
func Service() *wire.Service {
	return wire.JSON("glue", "1.1", "AWSGlue.", wire.Ops{
		"GetClassifier":            wire.Read(glueGetClassifier),
		"GetWorkflow":              wire.Read(glueGetWorkflow),
		"GetTags":                  wire.Read(glueGetTags),
		"GetConnection":            wire.Read(glueGetConnection),
		"GetSecurityConfiguration": wire.Read(glueGetSecurityConfiguration),
		"GetTable":                 wire.Read(glueGetTable),
		"GetTables":                wire.Read(glueGetTables),
	})
}

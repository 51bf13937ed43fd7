package securityhub

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves the Security Hub family over REST-JSON: BatchImportFindings (POST
// /findings/import) and GetFindings (POST /findings), as a custom
// integration uses them, and BatchUpdateFindings (PATCH
// /findings/batchupdate), as an analyst triages them: the fields it sets
// (workflow status, note, severity, ...) are the customer's from then on,
// and a provider's re-import keeps them. Findings are kept per account and region, keyed
// by ProductArn and Id as Security Hub keys them: a re-import of an Id
// updates the finding (CreatedAt kept from the first import).
//
// As on AWS: at most 100 findings per import; each is checked for the
// required ASFF fields, and a finding whose ProductArn is not the
// caller's account-region default product, or whose AwsAccountId is not
// the caller's account, fails alone (FailedFindings), the others import;
// GetFindings pages by MaxResults (1–100) and NextToken. GetFindings
// understands the filters realdrift uses (Id, ProductArn, AwsAccountId,
// RecordState, GeneratorId: EQUALS; ProductFields: EQUALS) and rejects any
// other with InvalidInputException rather than ignoring it. The findings
// live in h, which the server keeps (Of answers its tests). A throttled
// call answers LimitExceededException (429), the error the three
// operations' model names for AWS's throttling limits.
func Service(h *Findings) *wire.Service {
	return wire.RESTJSON("securityhub", securityHubRoute, wire.Ops{
		"BatchImportFindings": h.securityHubImport,
		"GetFindings":         h.securityHubGetFindings,
		"BatchUpdateFindings": h.securityHubUpdate,
	}).Refuses(400, "InvalidInputException").Throttles(429, "LimitExceededException").Scoped(securityHubResource)
}

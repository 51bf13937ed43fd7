package monitoring

import (
	"net/http"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// Service serves CloudWatch (signing name monitoring) for anomaly
// detectors: DescribeAnomalyDetectors over Smithy RPCv2 CBOR, the protocol
// the SDK speaks (cbor.go), and over the query protocol older clients
// (the AWS CLI v2 of these machines) still speak. It lists the world's
// AWS::CloudWatch::AnomalyDetector models that match the Namespace,
// MetricName, Dimensions and AnomalyDetectorTypes asked (MaxResults,
// NextToken), in the API's shape: the template's SingleMetricAnomalyDetector
// also as the top-level Namespace / MetricName / Dimensions / Stat copies,
// Configuration's MetricTimeZone as MetricTimezone and its excluded time
// ranges as timestamps, StateValue TRAINED_INSUFFICIENT_DATA.
func Service() *wire.Service {
	return &wire.Service{
		Name:          "monitoring",
		Protocol:      wire.ProtoCBOR,
		JSONNamespace: "com.amazonaws.cloudwatch#",
		QueryXMLNS:    "http://monitoring.amazonaws.com/doc/2010-08-01/",
		Throttle:      wire.Error{Status: 400, Code: "ThrottlingException", QueryCode: "Throttling"},
		Deny:          wire.Error{Status: 403, Code: "AccessDeniedException", QueryCode: "AccessDenied"},
		Route: func(r *http.Request) (string, map[string]string) {
			op, ok := strings.CutPrefix(r.URL.Path, "/service/GraniteServiceVersion20100801/operation/")
			if r.Method != http.MethodPost || !ok || strings.Contains(op, "/") {
				return "", nil
			}
			return op, nil
		},
		Ops: map[string]wire.Handler{
			"DescribeAnomalyDetectors": cloudWatchDescribeAnomalyDetectors,
		},
		// CloudWatch signs as monitoring; its actions are cloudwatch:*.
		IAM: wire.IAM{Prefix: "cloudwatch"},
	}
}

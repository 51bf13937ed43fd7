package sandbox

import (
	"encoding/json"

	"github.com/realdrift/realdrift/internal/sandbox/iamauth"
	"github.com/realdrift/realdrift/internal/sandbox/service/sns"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The world file's types and loader live in package world, which the
// services share; these names keep the sandbox's API whole.
type (
	World         = world.World
	Organization  = world.Organization
	Account       = world.Account
	AccessKey     = world.AccessKey
	Region        = world.Region
	Stack         = world.Stack
	Parameter     = world.Parameter
	Output        = world.Output
	Tag           = world.Tag
	Resource      = world.Resource
	PolicyVersion = world.PolicyVersion
	Policies      = world.Policies
	TrustPolicy   = world.TrustPolicy
	// ServiceControlPolicy is an organization SCP.
	ServiceControlPolicy = world.ServiceControlPolicy
	// PublishedMessage is a message an SNS Publish accepted (Published).
	PublishedMessage = sns.Message
	// PublishedAttribute is a published message's attribute.
	PublishedAttribute = sns.Attribute
)

// MaxWorldFile bounds a world file's size.
const MaxWorldFile = world.MaxWorldFile

// NestedStackType is the type of a nested stack resource.
const NestedStackType = world.NestedStackType

// LoadWorld reads and validates a world file.
func LoadWorld(path string) (*World, error) { return world.LoadWorld(path) }

// ParseWorld parses and validates a world document.
func ParseWorld(data []byte) (*World, error) { return world.ParseWorld(data) }

// StackID derives a stack's ARN.
func StackID(region, account, name string) string { return world.StackID(region, account, name) }

// NestedStackModel is the live model of a nested stack resource.
func NestedStackModel(child *Stack, templateURL string) json.RawMessage {
	return world.NestedStackModel(child, templateURL)
}

// NotEmulated is the error code of a request for a service or operation
// the sandbox does not serve.
const NotEmulated = wire.NotEmulated

// The IAM evaluator lives in package iamauth, which the server and the
// guard share; these names keep the guard's API whole.
type (
	Ask   = iamauth.Ask
	Asker = iamauth.Asker
)

// DynamoDBAsks is the Asker of DynamoDB for tables whose partition key
// attribute is hashKey (iamauth.DynamoDBAsks).
func DynamoDBAsks(hashKey string) Asker { return iamauth.DynamoDBAsks(hashKey) }

// TableKey is the KMS key that encrypts a DynamoDB table (iamauth.TableKey).
type TableKey = iamauth.TableKey

// DynamoDBKeyAsks is ask with the kms:Decrypt question a table's key puts
// for every item read and write (iamauth.DynamoDBKeyAsks).
func DynamoDBKeyAsks(ask Asker, key func(tableArn string) (TableKey, bool)) Asker {
	return iamauth.DynamoDBKeyAsks(ask, key)
}

// AWSManagedKeyPolicy is the key policy of a service's AWS managed key
// (iamauth.AWSManagedKeyPolicy).
func AWSManagedKeyPolicy(service, account, region string) (json.RawMessage, bool) {
	return iamauth.AWSManagedKeyPolicy(service, account, region)
}

// IAMAction returns the IAM action an operation of a service (by its SigV4
// signing name) is authorized as: the service's facts
// (wire.Service.IAMAction), else signing-name:Operation.
func IAMAction(signingName, operation string) string {
	if svc := services(&Server{})[signingName]; svc != nil {
		return svc.IAMAction(operation)
	}
	return signingName + ":" + operation
}

// CloudControlCalledVia is the aws:CalledVia value of the calls a Cloud
// Control handler makes with the caller's credentials
// (iamauth.CloudControlCalledVia).
const CloudControlCalledVia = iamauth.CloudControlCalledVia

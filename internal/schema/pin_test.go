package schema_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
)

// allHandlers is the handler list of a fully Cloud Control-managed type.
var allHandlers = []string{"create", "read", "update", "delete", "list"}

// pinned are the facts of four common types, written by hand from the raw
// registry schemas of @propulsionworks/cfn-resource-schemas@0.1.71, not
// copied from the generator's output. Property transforms are pinned by
// path only (the expressions are long JSONata strings); see
// TestPinnedTransformExpression for one expression in full.
var pinned = map[string]schema.Facts{
	"AWS::S3::Bucket": {
		ReadOnly:   []string{"Arn", "DomainName", "DualStackDomainName", "RegionalDomainName", "WebsiteURL"},
		WriteOnly:  []string{"AccessControl"},
		CreateOnly: []string{"BucketName"},
		ReadOnlyPaths: []string{
			"Arn", "DomainName", "DualStackDomainName",
			"MetadataConfiguration.Destination",
			"MetadataConfiguration.InventoryTableConfiguration.TableArn",
			"MetadataConfiguration.InventoryTableConfiguration.TableName",
			"MetadataConfiguration.JournalTableConfiguration.TableArn",
			"MetadataConfiguration.JournalTableConfiguration.TableName",
			"MetadataTableConfiguration.S3TablesDestination.TableArn",
			"MetadataTableConfiguration.S3TablesDestination.TableNamespace",
			"RegionalDomainName", "WebsiteURL",
		},
		WriteOnlyPaths: []string{
			"AccessControl",
			"LifecycleConfiguration.Rules.*.ExpiredObjectDeleteMarker",
			"LifecycleConfiguration.Rules.*.NoncurrentVersionExpirationInDays",
			"LifecycleConfiguration.Rules.*.NoncurrentVersionTransition",
			"LifecycleConfiguration.Rules.*.Transition",
			"MetadataConfiguration.InventoryTableConfiguration.EncryptionConfiguration",
			"MetadataConfiguration.JournalTableConfiguration.EncryptionConfiguration",
			"ReplicationConfiguration.Rules.*.Prefix",
		},
		CreateOnlyPaths: []string{"BucketName"},
		Defaults:        map[string]any{},
		DefaultPaths: map[string]any{
			// The raw default is the string "true" on a boolean property.
			"NotificationConfiguration.EventBridgeConfiguration.EventBridgeEnabled": true,
			"VersioningConfiguration.Status":                                        "Suspended",
		},
		// Tags is insertionOrder:false but key-identified; the S3Key filter
		// Rules are insertionOrder:false but sit under array items.
		UnorderedScalarPaths:      nil,
		UnorderedObjectArrayPaths: nil,
		// TargetObjectKeyFormat.SimplePrefix is an object closed to all keys.
		FreeFormMapPaths:  nil,
		PrimaryIdentifier: []string{"BucketName"},
		PropertyTransforms: map[string]string{
			"NotificationConfiguration.LambdaConfigurations.*.Filter.S3Key.Rules.*.Name": "",
			"NotificationConfiguration.QueueConfigurations.*.Filter.S3Key.Rules.*.Name":  "",
			"NotificationConfiguration.TopicConfigurations.*.Filter.S3Key.Rules.*.Name":  "",
		},
		Taggable:    true,
		TagProperty: "Tags",
		Handlers:    allHandlers,
	},
	"AWS::Lambda::Function": {
		ReadOnly:   []string{"Arn", "SnapStartResponse"},
		WriteOnly:  []string{"PublishToLatestPublished", "SnapStart"},
		CreateOnly: []string{"FunctionName", "PackageType", "TenancyConfig"},
		ReadOnlyPaths: []string{
			"Arn", "SnapStartResponse", "SnapStartResponse.ApplyOn", "SnapStartResponse.OptimizationStatus",
		},
		WriteOnlyPaths: []string{
			"Code.ImageUri", "Code.S3Bucket", "Code.S3Key", "Code.S3ObjectVersion",
			"Code.SourceKMSKeyArn", "Code.ZipFile",
			"PublishToLatestPublished", "SnapStart", "SnapStart.ApplyOn",
		},
		CreateOnlyPaths:            []string{"FunctionName", "PackageType", "TenancyConfig"},
		ConditionalCreateOnlyPaths: []string{"DurableConfig"},
		Defaults:                   map[string]any{},
		DefaultPaths:               map[string]any{"DurableConfig.RetentionPeriodInDays": 14.0},
		FreeFormMapPaths:           []string{"Environment.Variables"},
		PrimaryIdentifier:          []string{"FunctionName"},
		Taggable:                   true,
		TagProperty:                "Tags",
		Handlers:                   allHandlers,
	},
	"AWS::IAM::Role": {
		ReadOnly:                  []string{"Arn", "RoleId"},
		WriteOnly:                 []string{},
		CreateOnly:                []string{"Path", "RoleName"},
		ReadOnlyPaths:             []string{"Arn", "RoleId"},
		WriteOnlyPaths:            []string{},
		CreateOnlyPaths:           []string{"Path", "RoleName"},
		Defaults:                  map[string]any{"Path": "/"},
		DefaultPaths:              map[string]any{"Path": "/"},
		UnorderedScalarPaths:      []string{"ManagedPolicyArns"},
		UnorderedObjectArrayPaths: []string{"Policies"},
		// AssumeRolePolicyDocument and Policies.*.PolicyDocument may be an
		// object or a string: documents, not maps.
		FreeFormMapPaths:  nil,
		PrimaryIdentifier: []string{"RoleName"},
		Taggable:          true,
		TagProperty:       "Tags",
		Handlers:          allHandlers,
	},
	"AWS::EC2::SecurityGroup": {
		ReadOnly:                  []string{"GroupId", "Id"},
		WriteOnly:                 []string{},
		CreateOnly:                []string{"GroupDescription", "GroupName", "VpcId"},
		ReadOnlyPaths:             []string{"GroupId", "Id"},
		WriteOnlyPaths:            []string{"SecurityGroupIngress.*.SourceSecurityGroupName"},
		CreateOnlyPaths:           []string{"GroupDescription", "GroupName", "VpcId"},
		Defaults:                  map[string]any{},
		UnorderedObjectArrayPaths: []string{"SecurityGroupEgress", "SecurityGroupIngress"},
		PrimaryIdentifier:         []string{"Id"},
		PropertyTransforms: map[string]string{
			"SecurityGroupEgress.*.FromPort":    "",
			"SecurityGroupEgress.*.IpProtocol":  "",
			"SecurityGroupEgress.*.ToPort":      "",
			"SecurityGroupIngress.*.FromPort":   "",
			"SecurityGroupIngress.*.IpProtocol": "",
			"SecurityGroupIngress.*.ToPort":     "",
		},
		Taggable:    true,
		TagProperty: "Tags",
		Handlers:    allHandlers,
	},
}

func TestPinnedTypes(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for typeName, want := range pinned {
		t.Run(typeName, func(t *testing.T) {
			got, ok := snap.Lookup(typeName)
			if !ok {
				t.Fatalf("%s not in the snapshot", typeName)
			}
			for p := range got.PropertyTransforms {
				got.PropertyTransforms[p] = ""
			}
			// Every pinned type's read handler lists its permissions; the
			// lists themselves are pinned for one type below.
			if len(got.HandlerPermissions["read"]) == 0 {
				t.Errorf("no read handler permissions: %v", got.HandlerPermissions)
			}
			if typeName == "AWS::EC2::SecurityGroup" {
				if diff := cmp.Diff(got.HandlerPermissions["read"], []string{"ec2:DescribeSecurityGroups"}); diff != "" {
					t.Errorf("read handler permissions (-got +want):\n%s", diff)
				}
			}
			got.HandlerPermissions = nil
			if diff := cmp.Diff(got, &want); diff != "" {
				t.Errorf("facts (-got +want):\n%s", diff)
			}
			if !got.Readable() || !got.Updatable() || !got.Provisionable() {
				t.Errorf("readable/updatable/provisionable = %v/%v/%v, want all true",
					got.Readable(), got.Updatable(), got.Provisionable())
			}
		})
	}
}

func TestPinnedTransformExpression(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := snap.Lookup("AWS::S3::Bucket")
	if !ok {
		t.Fatal("AWS::S3::Bucket not in the snapshot")
	}
	got := f.PropertyTransforms["NotificationConfiguration.QueueConfigurations.*.Filter.S3Key.Rules.*.Name"]
	want := `$replace(Name, "prefix", "Prefix") $OR $replace(Name, "suffix", "Suffix")`
	if got != want {
		t.Errorf("transform = %q, want %q", got, want)
	}
}

// TestSnapshotStats pins the acceptance floor and the snapshot's source.
func TestSnapshotStats(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(snap.Types()); n < 1400 {
		t.Errorf("snapshot holds %d types, want at least 1400", n)
	}
	src := snap.Source()
	if src.Package != "@propulsionworks/cfn-resource-schemas" || src.Version != "0.1.71" {
		t.Errorf("source = %+v", src)
	}
	if len(src.Integrity) < len("sha512-") || src.Integrity[:7] != "sha512-" {
		t.Errorf("integrity = %q, want an sha512 SRI string", src.Integrity)
	}
}

// TestLookupCopies checks that a caller cannot change the snapshot.
func TestLookupCopies(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := snap.Lookup("AWS::IAM::Role")
	a.Defaults["Path"] = "/changed/"
	a.ReadOnlyPaths[0] = "changed"
	b, _ := snap.Lookup("AWS::IAM::Role")
	if diff := cmp.Diff(b.Defaults, map[string]any{"Path": "/"}); diff != "" {
		t.Errorf("defaults changed through a copy:\n%s", diff)
	}
	if b.ReadOnlyPaths[0] != "Arn" {
		t.Errorf("readOnlyPaths changed through a copy: %v", b.ReadOnlyPaths)
	}
	if _, ok := snap.Lookup("AWS::No::Such"); ok {
		t.Error("unknown type found")
	}
}

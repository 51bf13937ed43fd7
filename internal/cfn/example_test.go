package cfn_test

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/cfn"
)

func ExampleParse() {
	tpl, err := cfn.Parse([]byte(`
Parameters:
  Env: {Type: String, Default: dev}
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Metadata: {aws:cdk:path: App/Logs/Resource}
    Properties:
      BucketName: !Sub '${Env}-logs'
      Tags:
        - {Key: owner, Value: !GetAtt Team.Name}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	logs := tpl.Resources["Logs"]
	fmt.Println(logs.Type, logs.ConstructPath)
	fmt.Println(logs.Properties["BucketName"])
	fmt.Println(logs.Properties["Tags"])

	_, err = cfn.Parse([]byte(`{"Resources": {"Logs": {"Type": 42}}}`))
	fmt.Println(err)
	// Output:
	// AWS::S3::Bucket App/Logs/Resource
	// map[Fn::Sub:${Env}-logs]
	// [map[Key:owner Value:map[Fn::GetAtt:[Team Name]]]]
	// Resources.Logs.Type: must be a string, got a number
}

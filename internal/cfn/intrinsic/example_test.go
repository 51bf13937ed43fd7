package intrinsic_test

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
)

func Example() {
	tpl, err := cfn.Parse([]byte(`
Parameters:
  Env: {Type: String, Default: prod}
  DbPassword: {Type: String, NoEcho: true}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Key: {Type: AWS::KMS::Key}
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub '${Env}-logs-${AWS::AccountId}'
      KmsKey: !GetAtt Key.Arn
      Zone: !Select [0, !GetAZs '']
      Versioning: !If [IsProd, Enabled, !Ref AWS::NoValue]
  Scratch:
    Type: AWS::S3::Bucket
    Condition: IsProd
    Properties:
      Password: !Ref DbPassword
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := intrinsic.Context{
		AccountID:   "111111111111",
		Region:      "eu-west-1",
		StackName:   "web",
		Parameters:  map[string]string{"DbPassword": "****"},
		PhysicalIDs: map[string]string{"Key": "k-1"},
	}

	// Pass 1: no live attributes yet.
	r := intrinsic.New(tpl, ctx)
	logs, _ := r.Resource("Logs")
	fmt.Println(logs.Properties["BucketName"], logs.Properties["Versioning"])
	fmt.Printf("%+v\n", logs.Properties["KmsKey"])
	fmt.Printf("%+v\n", logs.Properties["Zone"])
	fmt.Println("waits on:", intrinsic.GetAttTargets(tpl.Resources["Logs"].Properties))

	// Pass 2: Fn::GetAtt reads the live model.
	r2 := r.WithLiveAttrs(map[string]map[string]any{"Key": {"Arn": "arn:aws:kms:eu-west-1:111111111111:key/k-1"}})
	logs, _ = r2.Resource("Logs")
	fmt.Println(logs.Properties["KmsKey"], "unresolved leaves:", intrinsic.CountUnknown(logs.Properties))

	scratch, _ := r2.Resource("Scratch")
	fmt.Printf("%+v\n", scratch.Properties["Password"])
	// Output:
	// prod-logs-111111111111 Enabled
	// {Reason:live attributes of Key are not known Secret:false}
	// {Reason:Fn::GetAZs depends on the account's Availability Zones Secret:false}
	// waits on: [Key]
	// arn:aws:kms:eu-west-1:111111111111:key/k-1 unresolved leaves: 1
	// {Reason:NoEcho parameter DbPassword has no supplied value Secret:true}
}

// Package region tells a region name from a typo, from AWS's published
// partition data (partitions.json, written by scripts/gen-regions.sh from
// botocore's endpoints data): each partition's region-name pattern
// (aws: ^(us|eu|ap|sa|ca|me|af|il|mx)-\w+-\d+$, aws-cn, aws-us-gov, ...)
// and the regions it lists, and its global services' regions.
//
// Rules:
//   - A name is valid when a partition lists it or matches a partition's
//     pattern, so a region newer than the data still passes (the pattern
//     admits it); "us-east1", "useast-1" or "eu-west" do not.
//   - The data is embedded and parsed once per call of Valid; nothing is
//     read at run time, nothing is global and mutable.
//   - Known lists every region the data names, for a "did you mean"
//     suggestion the caller makes.
//   - Home is where CloudTrail records a service's calls: a global
//     service's (isRegionalized false in the data: IAM, CloudFront,
//     Route 53, Organizations, …) one region in the caller's partition,
//     the one its endpoint signs for; any other service's, the region
//     itself.
package region

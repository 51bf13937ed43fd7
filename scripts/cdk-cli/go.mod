// This module boundary keeps scripts/cdk-cli/node_modules out of the
// repository's Go packages: the pinned CDK CLI ships Go init templates
// that are not Go code of this repository.
module cdkcli

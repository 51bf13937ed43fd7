// Package cfntest gives tests the shared real-world CloudFormation templates
// (the project's ../shared/templates fixtures): where they are and which
// files are templates.
//
// Rules:
//   - REALDRIFT_TEMPLATES_DIR overrides the location.
//   - A missing fixture directory fails the test when CI=true and skips it,
//     with the reason, otherwise. It never passes silently.
//   - Cloud-assembly files (*.assets.json, *.metadata.json, manifest.json)
//     are not templates and are never listed.
package cfntest

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// diffStep is the demo's last step: someone raises the nested backlog
// queue's visibility timeout in the console; check finds it under the
// nested stack; diff of the app's next version (worldgen.DemoNext: a
// replaced dead-letter queue, its reader's propagated change, the drifted
// timeout raised in the template too, an Outputs-only change of
// OrdersData) says what the deploy changes and, beside the timeout, that
// the deploy overwrites the live value.
func (d *demo) diffStep(ctx context.Context) error {
	backlog, err := d.backlogQueue()
	if err != nil {
		return err
	}
	ch := sandbox.Change{Op: sandbox.OpSet, Account: d.account, Region: demoDiffRegion, Type: "AWS::SQS::Queue", Identifier: backlog, Path: "VisibilityTimeout", Value: json.RawMessage(`300`)}
	if err := d.srv.Apply(ch); err != nil {
		return fmt.Errorf("out-of-band change: %w", err)
	}
	d.step(9, "what the next deploy changes",
		"In "+demoDiffRegion+", "+worldgen.DemoNestedRoot+" holds a nested stack with the orders backlog queue and its dead-letter queue. The\n"+
			"next version of the app renames the dead-letter queue (QueueName is create-only: a replacement, which the\n"+
			"backlog queue's RedrivePolicy follows), raises the backlog queue's VisibilityTimeout to 120 and exports one\n"+
			"more output of OrdersData. Meanwhile someone set that timeout to 300 in the console: check --all finds it\n"+
			"under the nested stack (check recurses into nested stacks by default; --hide-clean shows only the stacks\n"+
			"with findings).")
	fmt.Fprintf(d.out, "  • aws sqs set-queue-attributes --region %s: VisibilityTimeout=300 on %s\n\n", demoDiffRegion, backlog)
	if err := d.cmd(ctx, ExitDrift, "check", "--region", demoDiffRegion, "--all", "--hide-clean", "--fail"); err != nil {
		return err
	}
	app, err := d.writeNextApp()
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "\ndiff resolves the next version's templates against the deployed stacks and their live resources,\n"+
		"descends into the nested stack (--recursive) and says beside each change where the resource has drifted.\n"+
		"With --fail, any change in the tree exits 1.\n\n")
	return d.cmd(ctx, ExitDrift, "diff", "--region", demoDiffRegion, "--app", app, "--all", "--recursive", "--fail")
}

// demoDiffRegion is the region of the diff step's stacks.
const demoDiffRegion = "eu-west-1"

// backlogQueue is the physical id of the nested stack's backlog queue.
func (d *demo) backlogQueue() (string, error) {
	for _, a := range d.world.Accounts {
		for _, r := range a.Regions {
			if a.ID != d.account || r.Name != demoDiffRegion {
				continue
			}
			for _, st := range r.Stacks {
				for _, res := range st.Resources {
					if res.Type == "AWS::SQS::Queue" && res.LogicalID == worldgen.DemoBacklogQueue {
						return res.PhysicalID, nil
					}
				}
			}
		}
	}
	return "", fmt.Errorf("the demo world has no nested backlog queue in %s/%s", demoAccountName, demoDiffRegion)
}

// writeNextApp writes the app's next version as a cloud assembly in the
// demo's scratch directory and returns its path.
func (d *demo) writeNextApp() (string, error) {
	stacks, nested, err := worldgen.DemoNext(d.world, d.account, demoDiffRegion)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(d.stateDir, "next.cdk.out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	arts := map[string]any{}
	names := make([]string, 0, len(stacks))
	for n := range stacks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		file := n + ".template.json"
		if err := os.WriteFile(filepath.Join(dir, file), []byte(stacks[n]), 0o644); err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
		arts[n] = map[string]any{"type": "aws:cloudformation:stack", "environment": "aws://" + d.account + "/" + demoDiffRegion, "properties": map[string]any{"templateFile": file}}
	}
	for file, body := range nested {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
			return "", fmt.Errorf("demo: %w", err)
		}
	}
	b, err := json.Marshal(map[string]any{"version": "55.0.0", "artifacts": arts})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return dir, nil
}

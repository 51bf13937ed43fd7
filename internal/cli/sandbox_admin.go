package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// sandboxAdminVerbs are the admin verbs and their arguments, in the order
// their usage lists them.
var sandboxAdminVerbs = [][2]string{
	{"change", "--type TYPE --id ID --path PATH (--value JSON | --remove)"},
	{"delete", "--type TYPE --id ID"},
	{"add", "--type TYPE --id ID [--properties JSON]"},
	{"calls", "[--reset]"},
}

const sandboxAdminAbout = `Out-of-band changes to a running sandbox ('realdrift sandbox serve') through
its admin API, as a console edit would make them, and the API calls it
answered. The sandbox is --endpoint-url, else AWS_ENDPOINT_URL; a change
lands in --account, else the account AWS_ACCESS_KEY_ID acts as (the keys
realdrift check uses), else the world's default account; the region is
--region, else AWS_REGION. ID is the Cloud Control identifier (the physical
id for most types); PATH is dotted (Tags.0.Value) or a JSON pointer.
'calls' prints the call log as JSON: counts are every attempt per API,
requests the first attempts and retries the others (the SDK's attempt
number; each recent call carries its attempt).`

// sandboxAdminUsage is the synopsis of one admin verb: its own arguments
// first (after "realdrift sandbox VERB"), then the other admin verbs and
// the shared description.
func sandboxAdminUsage(verb string) string {
	var own string
	var others []string
	for _, v := range sandboxAdminVerbs {
		if v[0] == verb {
			own = v[1]
			continue
		}
		others = append(others, "       realdrift sandbox "+v[0]+" "+v[1])
	}
	return strings.Join(append([]string{own}, others...), "\n") + "\n\n" + sandboxAdminAbout
}

// sandboxAdmin is the admin API client of the sandbox verbs.
type sandboxAdmin struct {
	endpoint string
	client   *http.Client
}

func (a sandboxAdmin) do(ctx context.Context, method, route string, body any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	url := strings.TrimRight(a.endpoint, "/") + "/_sandbox/" + route
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, explain(fmt.Errorf("sandbox admin API at %s: %w", a.endpoint, err))
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(out, &e) == nil && e.Error != "" {
			return nil, fmt.Errorf("sandbox: %s", e.Error)
		}
		return nil, fmt.Errorf("sandbox: %s %s: HTTP %d: %s", method, route, resp.StatusCode, strings.TrimSpace(string(out)))
	}
	return out, nil
}

func runSandboxAdmin(ctx context.Context, s IO, verb string, args []string) int {
	name := "sandbox " + verb
	fs := newFlags(s, name, sandboxAdminUsage(verb))
	endpoint := fs.String("endpoint-url", "", "the sandbox (default: AWS_ENDPOINT_URL)")
	account := fs.String("account", "", "the account changed (default: the account AWS_ACCESS_KEY_ID acts as, else the world's default)")
	region := fs.String("region", "", "the region (default: AWS_REGION, AWS_DEFAULT_REGION)")
	typ := fs.String("type", "", "the resource type, e.g. AWS::SQS::Queue")
	id := fs.String("id", "", "the resource's Cloud Control identifier (the physical id for most types)")
	path := fs.String("path", "", "change: the property path (dotted or a JSON pointer)")
	value := fs.String("value", "", "change: the new value as JSON (\"30\", '\"text\"', '{\"a\":1}')")
	remove := fs.Bool("remove", false, "change: remove the value at --path")
	props := fs.String("properties", "", "add: the live model of the added resource as JSON")
	reset := fs.Bool("reset", false, "calls: clear the call log after printing it")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if *endpoint == "" {
		*endpoint = getenv(s, "AWS_ENDPOINT_URL")
	}
	if *endpoint == "" {
		return fail(s, name, errors.New("no sandbox: pass --endpoint-url (the URL 'realdrift sandbox serve' prints) or set AWS_ENDPOINT_URL"))
	}
	if err := dialEndpoint(ctx, *endpoint, 5*time.Second); err != nil {
		return fail(s, name, err)
	}
	admin := sandboxAdmin{endpoint: *endpoint, client: &http.Client{Timeout: 30 * time.Second}}
	if verb == "calls" {
		out, err := admin.do(ctx, http.MethodGet, "calls", nil)
		if err != nil {
			return fail(s, name, err)
		}
		var pretty bytes.Buffer
		if json.Indent(&pretty, out, "", "  ") != nil {
			pretty.Reset()
			pretty.Write(out)
		}
		fmt.Fprintln(s.Stdout, strings.TrimSpace(pretty.String()))
		if *reset {
			if _, err := admin.do(ctx, http.MethodDelete, "calls", nil); err != nil {
				return fail(s, name, err)
			}
		}
		return ExitOK
	}
	if *region == "" {
		*region = getenv(s, "AWS_REGION")
	}
	if *region == "" {
		*region = getenv(s, "AWS_DEFAULT_REGION")
	}
	if *typ == "" || *id == "" || *region == "" {
		return fail(s, name, errors.New("--type, --id and a region (--region or AWS_REGION) are required"))
	}
	ch := sandbox.Change{Account: *account, Region: *region, Type: *typ, Identifier: *id}
	if *account == "" {
		ch.AccessKey = getenv(s, "AWS_ACCESS_KEY_ID")
	}
	switch verb {
	case "change":
		switch {
		case *path == "":
			return fail(s, name, errors.New("--path is required"))
		case *remove && *value != "":
			return fail(s, name, errors.New("--value and --remove exclude each other"))
		case *remove:
			ch.Op, ch.Path = sandbox.OpRemove, *path
		case *value == "":
			return fail(s, name, errors.New("pass --value JSON or --remove"))
		default:
			if !json.Valid([]byte(*value)) {
				return fail(s, name, fmt.Errorf("--value %s is not JSON (a string needs quotes: '\"text\"')", *value))
			}
			ch.Op, ch.Path, ch.Value = sandbox.OpSet, *path, json.RawMessage(*value)
		}
	case "delete":
		ch.Op = sandbox.OpDelete
	case "add":
		ch.Op = sandbox.OpAdd
		if *props != "" {
			if !json.Valid([]byte(*props)) {
				return fail(s, name, errors.New("--properties is not JSON"))
			}
			ch.Properties = json.RawMessage(*props)
		}
	}
	if _, err := admin.do(ctx, http.MethodPost, "change", ch); err != nil {
		return fail(s, name, err)
	}
	where := ch.Account
	if where == "" && ch.AccessKey != "" {
		where = "the account of " + ch.AccessKey
	} else if where == "" {
		where = "the default account"
	}
	fmt.Fprintf(s.Stdout, "%s %s %s in %s, %s\n", pastTense(verb), ch.Type, ch.Identifier, where, ch.Region)
	return ExitOK
}

func pastTense(verb string) string {
	switch verb {
	case "change":
		return "changed"
	case "delete":
		return "deleted"
	}
	return "added"
}

package live_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lexmodelsv2"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// moto 5.2.1's lexv2-models serves bots, bot aliases, resource policies
// and tags (CreateBot, DescribeBot, ListBots answer), but none of the
// locale tree: CreateBotLocale, ListBotLocales and ListIntents answer 404,
// and DescribeBotLocale, DescribeIntent, ListSlots, DescribeSlot,
// ListSlotTypes and DescribeSlotType have no route either. This supplement
// is checked against the sandbox only.

const lexBotID = "YVVVR3Y3FN"

// lexDeclared is a bot with two locales: en_US with a custom slot type,
// two intents (one with two slots, a built-in and the custom type, and
// their priorities) and no declared fallback intent; en_GB with one.
const lexDeclared = `{"Name":"flowers","RoleArn":"arn:aws:iam::111111111111:role/lex","DataPrivacy":{"ChildDirected":false},"IdleSessionTTLInSeconds":300,
"BotLocales":[
 {"LocaleId":"en_US","NluConfidenceThreshold":0.4,"Description":"US","VoiceSettings":{"VoiceId":"Ivy","Engine":"neural"},
  "SlotTypes":[{"Name":"FlowerType","Description":"flowers","ValueSelectionSetting":{"ResolutionStrategy":"TOP_RESOLUTION"},
    "SlotTypeValues":[{"SampleValue":{"Value":"roses"},"Synonyms":[{"Value":"rose"}]},{"SampleValue":{"Value":"lilies"}}]}],
  "Intents":[
   {"Name":"OrderFlowers","Description":"order","SampleUtterances":[{"Utterance":"I want to order flowers"},{"Utterance":"Order some flowers"}],
    "FulfillmentCodeHook":{"Enabled":false},
    "OutputContexts":[{"Name":"ordered","TimeToLiveInSeconds":90,"TurnsToLive":5}],
    "Slots":[
     {"Name":"Flower","SlotTypeName":"FlowerType","ValueElicitationSetting":{"SlotConstraint":"Required",
       "PromptSpecification":{"MaxRetries":2,"AllowInterrupt":true,"MessageGroupsList":[{"Message":{"PlainTextMessage":{"Value":"Which flowers?"}},"Variations":[{"SSMLMessage":{"Value":"<speak>Which?</speak>"}}]}]}}},
     {"Name":"PickupDate","SlotTypeName":"AMAZON.Date","ValueElicitationSetting":{"SlotConstraint":"Optional","SampleUtterances":[{"Utterance":"on {PickupDate}"}]}}],
    "SlotPriorities":[{"Priority":1,"SlotName":"Flower"},{"Priority":2,"SlotName":"PickupDate"}]},
   {"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}],"DialogCodeHook":{"Enabled":true}}]},
 {"LocaleId":"en_GB","NluConfidenceThreshold":0.5,
  "Intents":[{"Name":"Hello","SampleUtterances":[{"Utterance":"hiya"}]}]}]}`

// lexWorld serves the bot: its live model is the declared one with the
// Cloud Control read's own properties.
func lexWorld(t *testing.T, declared string) (*sandbox.Server, *live.Clients) {
	srv, c, _ := lexWorldURL(t, declared)
	return srv, c
}

func lexWorldURL(t *testing.T, declared string) (*sandbox.Server, *live.Clients, string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(declared), &m); err != nil {
		t.Fatal(err)
	}
	m["Id"], m["Arn"] = lexBotID, "arn:aws:lex:us-east-1:111111111111:bot/"+lexBotID
	b, _ := json.Marshal(m)
	srv, url := serve(t, worldOf(liveOnly("AWS::Lex::Bot", lexBotID, string(b))))
	return srv, live.NewClients(config(url)), url
}

func lexRequest(t *testing.T, declared string) live.Request {
	return live.Request{Type: "AWS::Lex::Bot", LogicalID: "Bot", PhysicalID: lexBotID, Declared: declaredOf(t, declared)}
}

// TestLexBotSupplement: the whole locale tree read back in the template's
// shape (the fallback intent Lex adds, undeclared, folded), clean; a
// sample utterance changed out of band is drift; a slot read denied or
// throttled leaves BotLocales unread.
func TestLexBotSupplement(t *testing.T) {
	srv, c := lexWorld(t, lexDeclared)
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  lexRequest(t, lexDeclared),
		want: map[string]any{"BotLocales": declaredOf(t, lexDeclared)["BotLocales"]},
		id:   lexBotID, path: "BotLocales.0.Intents.0.SampleUtterances.1.Utterance", value: `"Send me flowers"`,
		deny: "lex:DescribeSlot",
	})
}

// TestLexBotSupplementThreshold: a locale setting changed out of band is
// drift too.
func TestLexBotSupplementThreshold(t *testing.T) {
	srv, c := lexWorld(t, lexDeclared)
	r := lexRequest(t, lexDeclared)
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::Lex::Bot", Identifier: lexBotID, Path: "BotLocales.1.NluConfidenceThreshold", Value: json.RawMessage(`0.7`)}); err != nil {
		t.Fatal(err)
	}
	fs := driftOnly(classifyAll(t, r, live.Read(ctx(t), c, r)))
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "BotLocales") {
		t.Errorf("NluConfidenceThreshold changed out of band: %+v, want one declared finding at BotLocales", fs)
	}
}

// TestLexBotSupplementSubReads: any one call of the walk failing (denied,
// throttled, not found) leaves the whole of BotLocales unread, with a
// readGap and no drift.
func TestLexBotSupplementSubReads(t *testing.T) {
	srv, c := lexWorld(t, lexDeclared)
	r := lexRequest(t, lexDeclared)
	for _, op := range []string{"ListBotLocales", "DescribeBotLocale", "ListSlotTypes", "DescribeSlotType", "ListIntents", "DescribeIntent", "ListSlots", "DescribeSlot"} {
		for _, f := range []sandbox.FaultRule{
			{Service: "lex", Action: op, Code: "AccessDeniedException", Status: 403},
			{Service: "lex", Action: op, Code: "ThrottlingException", Status: 429},
			{Service: "lex", Action: op, Code: "ResourceNotFoundException", Status: 404},
		} {
			if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
				t.Fatal(err)
			}
			res := live.Read(ctx(t), c, r)
			if res.Status != live.Found {
				t.Fatalf("%s %s: %+v, want the Cloud Control model", op, f.Code, res)
			}
			if v, ok := res.Model["BotLocales"]; ok {
				t.Errorf("%s %s: BotLocales read as %v, want unread", op, f.Code, v)
			}
			fs := classifyAll(t, r, res)
			if d := driftOnly(fs); len(d) != 0 {
				t.Errorf("%s %s: drift %+v", op, f.Code, d)
			}
			if !hasReadGap(fs, "BotLocales") {
				t.Errorf("%s %s: no readGap for BotLocales in %+v", op, f.Code, fs)
			}
		}
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if res := live.Read(ctx(t), c, r); res.Model["BotLocales"] == nil {
		t.Errorf("faults cleared: BotLocales unread: %+v", res)
	}
}

func hasReadGap(fs []drift.Finding, path string) bool {
	for _, f := range fs {
		if f.Tier == drift.ReadGap && strings.HasPrefix(f.Path, path) {
			return true
		}
	}
	return false
}

// pagedLex asks every List call for one entry a page, so the walk must
// follow nextToken to read the tree.
type pagedLex struct{ *lexmodelsv2.Client }

func (p pagedLex) ListBotLocales(ctx context.Context, in *lexmodelsv2.ListBotLocalesInput, o ...func(*lexmodelsv2.Options)) (*lexmodelsv2.ListBotLocalesOutput, error) {
	in.MaxResults = aws.Int32(1)
	return p.Client.ListBotLocales(ctx, in, o...)
}

func (p pagedLex) ListSlotTypes(ctx context.Context, in *lexmodelsv2.ListSlotTypesInput, o ...func(*lexmodelsv2.Options)) (*lexmodelsv2.ListSlotTypesOutput, error) {
	in.MaxResults = aws.Int32(1)
	return p.Client.ListSlotTypes(ctx, in, o...)
}

func (p pagedLex) ListIntents(ctx context.Context, in *lexmodelsv2.ListIntentsInput, o ...func(*lexmodelsv2.Options)) (*lexmodelsv2.ListIntentsOutput, error) {
	in.MaxResults = aws.Int32(1)
	return p.Client.ListIntents(ctx, in, o...)
}

func (p pagedLex) ListSlots(ctx context.Context, in *lexmodelsv2.ListSlotsInput, o ...func(*lexmodelsv2.Options)) (*lexmodelsv2.ListSlotsOutput, error) {
	in.MaxResults = aws.Int32(1)
	return p.Client.ListSlots(ctx, in, o...)
}

// TestLexBotSupplementPaged: read one entry a page, the tree is the same,
// in as many calls as the doc comment counts.
func TestLexBotSupplementPaged(t *testing.T) {
	srv, c, url := lexWorldURL(t, lexDeclared)
	r := lexRequest(t, lexDeclared)
	whole := live.Read(ctx(t), c, r)
	c.LexModels = pagedLex{lexmodelsv2.NewFromConfig(config(url))}
	srv.ResetCalls()
	paged := live.Read(ctx(t), c, r)
	if diff := cmp.Diff(paged.Model["BotLocales"], whole.Model["BotLocales"]); diff != "" || whole.Model["BotLocales"] == nil {
		t.Errorf("paged read (-paged +whole):\n%s", diff)
	}
	// 2 locales; en_US: 1 slot type, 3 intents (2 + Lex's fallback), 2
	// slots; en_GB: no slot types, 2 intents, no slots. One entry a page:
	// n entries take n pages (the last one has no token), none one page.
	got := srv.Calls().Requests
	want := map[string]int{
		"lex:ListBotLocales": 2, "lex:DescribeBotLocale": 2,
		"lex:ListSlotTypes": 1 + 1, "lex:DescribeSlotType": 1,
		"lex:ListIntents": 3 + 2, "lex:DescribeIntent": 5,
		"lex:ListSlots": 2 + 4, "lex:DescribeSlot": 2,
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d requests, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

// TestLexBotSupplementFallback: the fallback intent Lex adds is folded when
// the template never declares it, kept when it does (as CDK templates do),
// and kept — surfacing — when changed out of band in a template that does
// not declare it.
func TestLexBotSupplementFallback(t *testing.T) {
	const withFallback = `{"Name":"b","BotLocales":[{"LocaleId":"en_US","NluConfidenceThreshold":0.4,
  "Intents":[{"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}]},{"Name":"FallbackIntent","ParentIntentSignature":"AMAZON.FallbackIntent"}]}]}`
	srv, c := lexWorld(t, withFallback)
	r := lexRequest(t, withFallback)
	got := live.Read(ctx(t), c, r)
	if diff := cmp.Diff(got.Model["BotLocales"], r.Declared["BotLocales"]); diff != "" {
		t.Errorf("declared fallback intent (-got +want):\n%s", diff)
	}
	if fs := driftOnly(classifyAll(t, r, got)); len(fs) != 0 {
		t.Errorf("declared fallback intent: %+v", fs)
	}

	// The same bot, read for a template that never declares it.
	const without = `{"Name":"b","BotLocales":[{"LocaleId":"en_US","NluConfidenceThreshold":0.4,
  "Intents":[{"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}]}]}]}`
	r = lexRequest(t, without)
	got = live.Read(ctx(t), c, r)
	if diff := cmp.Diff(got.Model["BotLocales"], r.Declared["BotLocales"]); diff != "" {
		t.Errorf("undeclared fallback intent not folded (-got +want):\n%s", diff)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::Lex::Bot", Identifier: lexBotID, Path: "BotLocales.0.Intents.1.DialogCodeHook", Value: json.RawMessage(`{"Enabled":true}`)}); err != nil {
		t.Fatal(err)
	}
	fs := driftOnly(classifyAll(t, r, live.Read(ctx(t), c, r)))
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Path, "BotLocales") {
		t.Errorf("fallback intent changed out of band, undeclared: %+v, want one finding at BotLocales", fs)
	}
}

// TestLexBotSupplementUnmapped: a setting the reader does not read, when
// declared, leaves BotLocales unread (a readGap, not a false removal);
// when only live holds it, it is left out and the rest compared.
func TestLexBotSupplementUnmapped(t *testing.T) {
	const closing = `{"Name":"b","BotLocales":[{"LocaleId":"en_US","NluConfidenceThreshold":0.4,
  "Intents":[{"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}],
   "IntentClosingSetting":{"ClosingResponse":{"MessageGroupsList":[{"Message":{"PlainTextMessage":{"Value":"bye"}}}]}}}]}]}`
	_, c := lexWorld(t, closing)
	r := lexRequest(t, closing)
	res := live.Read(ctx(t), c, r)
	if v, ok := res.Model["BotLocales"]; ok {
		t.Errorf("declared IntentClosingSetting: BotLocales read as %v, want unread", v)
	}
	fs := classifyAll(t, r, res)
	if len(driftOnly(fs)) != 0 || !hasReadGap(fs, "BotLocales") {
		t.Errorf("declared IntentClosingSetting: %+v, want a readGap and no drift", fs)
	}

	const plain = `{"Name":"b","BotLocales":[{"LocaleId":"en_US","NluConfidenceThreshold":0.4,
  "Intents":[{"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}]}]}]}`
	r = lexRequest(t, plain)
	res = live.Read(ctx(t), c, r)
	if diff := cmp.Diff(res.Model["BotLocales"], r.Declared["BotLocales"]); diff != "" {
		t.Errorf("live-only IntentClosingSetting not left out (-got +want):\n%s", diff)
	}
	if fs := driftOnly(classifyAll(t, r, res)); len(fs) != 0 {
		t.Errorf("live-only IntentClosingSetting: %+v", fs)
	}
}

// TestLexBotSupplementImportFile: a bot the template defines by an import
// file (BotFileS3Location) has its locales in the file: BotLocales is left
// unread, not reported as undeclared.
func TestLexBotSupplementImportFile(t *testing.T) {
	const fromFile = `{"Name":"flowers","RoleArn":"arn:aws:iam::111111111111:role/lex","DataPrivacy":{"ChildDirected":false},"IdleSessionTTLInSeconds":300,
  "BotFileS3Location":{"S3Bucket":"bots","S3ObjectKey":"flowers.zip"}}`
	_, c := lexWorld(t, lexDeclared)
	r := lexRequest(t, fromFile)
	res := live.Read(ctx(t), c, r)
	if v, ok := res.Model["BotLocales"]; ok {
		t.Errorf("BotLocales read as %v, want unread", v)
	}
	if fs := driftOnly(classifyAll(t, r, res)); len(fs) != 0 {
		t.Errorf("bot from an import file: %+v", fs)
	}
}

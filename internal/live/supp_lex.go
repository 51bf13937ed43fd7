package live

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lexmodelsv2"
	"github.com/aws/aws-sdk-go-v2/service/lexmodelsv2/types"
)

// AWS::Lex::Bot: BotLocales (the bot's whole conversational model: its
// locales, their slot types, intents and the intents' slots) is
// write-only to Cloud Control. The Lex V2 models API answers it on the
// bot's DRAFT version, one node at a time:
//
//	ListBotLocales → per locale DescribeBotLocale,
//	  ListSlotTypes → DescribeSlotType per custom slot type,
//	  ListIntents → DescribeIntent per intent,
//	    ListSlots → DescribeSlot per slot of the intent.
//
// Every List call is paged to its end (1000 a page, the API's maximum).
// Calls per bot: ⌈L/1000⌉ ListBotLocales, then per locale 1
// DescribeBotLocale + ⌈T/1000⌉ ListSlotTypes + T DescribeSlotType +
// ⌈I/1000⌉ ListIntents + I DescribeIntent, and per intent ⌈S/1000⌉
// ListSlots + S DescribeSlot (L locales, T slot types, I intents, S slots).
// A walk that would need more than lexMaxCalls calls stops and leaves
// BotLocales unread.
//
// The answers are projected into the template's BotLocale shape: PascalCase
// keys, ids resolved to names (a slot's slotTypeId to SlotTypeName — a
// built-in AMAZON.* type's id is its name —, a slot priority's slotId to
// SlotName), the API's SlotValueResolutionStrategy (OriginalValue …)
// translated to the template's (ORIGINAL_VALUE …), NluIntentConfidenceThreshold
// to NluConfidenceThreshold, messageGroups to MessageGroupsList.
//
// The reader maps a fixed part of the BotLocale shape (lexMapped). The rest
// (a locale's CustomVocabulary — another API —, GenerativeAISettings and
// speech settings; an intent's confirmation, closing and initial-response
// settings, its QnA / Bedrock agent / Q in Connect configuration and the
// fulfillment hook's update and status specifications; a slot's
// wait-and-continue, capture and sub-slot settings and a prompt's
// PromptAttemptsSpecification) is not read: when the template declares any
// of it the whole BotLocales is left unread (comparing it would report the
// unread part removed), otherwise it is left out of the answer (it is
// compared nowhere then). A node the walk cannot resolve (a slot type or
// slot id no answer names, an unknown resolution strategy) leaves the
// whole BotLocales unread too: a partial BotLocales would be false drift.
//
// A template that defines the bot by a BotFileS3Location (an import file
// of its locales) has its locales in the file, which the reader cannot
// compare: BotLocales is left unread then.
//
// Lex creates the built-in AMAZON.FallbackIntent in every locale. A
// template may declare it (CDK templates do: Name FallbackIntent,
// ParentIntentSignature AMAZON.FallbackIntent); the rule: the live
// fallback intent is kept when the template declares an intent with that
// parent signature in the same locale, and folded (left out) when it does
// not and the intent holds nothing beyond Lex's own (Name,
// ParentIntentSignature, Description). A fallback intent changed out of
// band in a template that never declares it is kept, and surfaces.

type lexModelsAPI interface {
	lexmodelsv2.ListBotLocalesAPIClient
	DescribeBotLocale(ctx context.Context, in *lexmodelsv2.DescribeBotLocaleInput, optFns ...func(*lexmodelsv2.Options)) (*lexmodelsv2.DescribeBotLocaleOutput, error)
	lexmodelsv2.ListSlotTypesAPIClient
	DescribeSlotType(ctx context.Context, in *lexmodelsv2.DescribeSlotTypeInput, optFns ...func(*lexmodelsv2.Options)) (*lexmodelsv2.DescribeSlotTypeOutput, error)
	lexmodelsv2.ListIntentsAPIClient
	DescribeIntent(ctx context.Context, in *lexmodelsv2.DescribeIntentInput, optFns ...func(*lexmodelsv2.Options)) (*lexmodelsv2.DescribeIntentOutput, error)
	lexmodelsv2.ListSlotsAPIClient
	DescribeSlot(ctx context.Context, in *lexmodelsv2.DescribeSlotInput, optFns ...func(*lexmodelsv2.Options)) (*lexmodelsv2.DescribeSlotOutput, error)
}

var _ lexModelsAPI = (*lexmodelsv2.Client)(nil)

var lexBotProps = []string{"BotLocales"}

const (
	// lexDraft is the version whose locales the template's BotLocales are.
	lexDraft = "DRAFT"
	// lexPage is the page size of every List call (the API's maximum).
	lexPage = 1000
	// lexMaxCalls bounds the calls of one bot's walk.
	lexMaxCalls = 5000
	// lexFallbackSignature is the built-in intent Lex adds to every locale.
	lexFallbackSignature = "AMAZON.FallbackIntent"
)

// lexShape is the part of a BotLocale shape the reader maps: each key
// names a mapped property; a nil shape is mapped whole (every key below
// it), a non-nil one only its own keys. Lists are described by their
// elements' shape.
type lexShape map[string]lexShape

var lexMapped = lexShape{
	"LocaleId":                   nil,
	"Description":                nil,
	"NluConfidenceThreshold":     nil,
	"VoiceSettings":              nil,
	"SpeechDetectionSensitivity": nil,
	"SlotTypes": {
		"Name":                    nil,
		"Description":             nil,
		"ParentSlotTypeSignature": nil,
		"SlotTypeValues":          nil,
		"ValueSelectionSetting":   nil,
	},
	"Intents": {
		"Name":                  nil,
		"Description":           nil,
		"DisplayName":           nil,
		"ParentIntentSignature": nil,
		"SampleUtterances":      nil,
		"DialogCodeHook":        nil,
		"FulfillmentCodeHook":   {"Enabled": nil, "IsActive": nil},
		"InputContexts":         nil,
		"OutputContexts":        nil,
		"KendraConfiguration":   nil,
		"SlotPriorities":        nil,
		"Slots": {
			"Name":                  nil,
			"Description":           nil,
			"SlotTypeName":          nil,
			"ObfuscationSetting":    nil,
			"MultipleValuesSetting": nil,
			"ValueElicitationSetting": {
				"SlotConstraint":            nil,
				"DefaultValueSpecification": nil,
				"SampleUtterances":          nil,
				"PromptSpecification": {
					"MessageGroupsList":        nil,
					"MaxRetries":               nil,
					"AllowInterrupt":           nil,
					"MessageSelectionStrategy": nil,
				},
			},
		},
	},
}

// unmapped names the first declared key (as a dotted path) outside
// shape, or "".
func (shape lexShape) unmapped(path string, v any) string {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if p := shape.unmapped(path, e); p != "" {
				return p
			}
		}
	case map[string]any:
		for k, e := range x {
			sub, ok := shape[k]
			if !ok {
				return path + "." + k
			}
			if sub == nil {
				continue
			}
			if p := sub.unmapped(path+"."+k, e); p != "" {
				return p
			}
		}
	default:
		return path
	}
	return ""
}

// lexResolution translates the API's slot value resolution strategies to
// the template's.
var lexResolution = map[types.SlotValueResolutionStrategy]string{
	types.SlotValueResolutionStrategyOriginalValue: "ORIGINAL_VALUE",
	types.SlotValueResolutionStrategyTopResolution: "TOP_RESOLUTION",
	types.SlotValueResolutionStrategyConcatenation: "CONCATENATION",
}

// lexWalk is one bot's read: the client, the bot, the calls made so far.
type lexWalk struct {
	api   lexModelsAPI
	bot   string
	calls int
}

// call counts one call; past lexMaxCalls the walk stops.
func (w *lexWalk) call() error {
	w.calls++
	if w.calls > lexMaxCalls {
		return skip(fmt.Sprintf("Lex bot %s: BotLocales needs more than %d calls", w.bot, lexMaxCalls))
	}
	return nil
}

// readLexBotSupplement reads a bot's DRAFT locales (physical id: the bot
// id).
func readLexBotSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.LexModels == nil {
		return nil, skip("no Lex models client")
	}
	if _, ok := r.Declared["BotFileS3Location"]; ok {
		return nil, skip("BotLocales: the template defines the bot by BotFileS3Location, whose file the reader cannot compare")
	}
	if d, ok := r.Declared["BotLocales"]; ok {
		if p := lexMapped.unmapped("BotLocales", d); p != "" {
			return nil, skip("BotLocales: the template declares " + p + ", which the reader does not read")
		}
	}
	w := &lexWalk{api: c.LexModels, bot: r.PhysicalID}
	var ids []string
	p := lexmodelsv2.NewListBotLocalesPaginator(w.api, &lexmodelsv2.ListBotLocalesInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), MaxResults: aws.Int32(lexPage)})
	for p.HasMorePages() {
		if err := w.call(); err != nil {
			return nil, err
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, l := range page.BotLocaleSummaries {
			ids = append(ids, aws.ToString(l.LocaleId))
		}
	}
	if len(ids) == 0 {
		return map[string]any{}, nil
	}
	locales := make([]any, 0, len(ids))
	for _, id := range ids {
		l, err := w.locale(ctx, id, declaredLexLocale(r.Declared, id))
		if err != nil {
			return nil, fmt.Errorf("read AWS::Lex::Bot %s locale %s: %w", w.bot, id, err)
		}
		locales = append(locales, l)
	}
	return map[string]any{"BotLocales": locales}, nil
}

// declaredLexLocale returns the template's locale id, or nil.
func declaredLexLocale(declared map[string]any, id string) map[string]any {
	l, _ := declared["BotLocales"].([]any)
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["LocaleId"] == id {
			return m
		}
	}
	return nil
}

// locale reads one locale with its slot types and intents.
func (w *lexWalk) locale(ctx context.Context, id string, declared map[string]any) (map[string]any, error) {
	if err := w.call(); err != nil {
		return nil, err
	}
	d, err := w.api.DescribeBotLocale(ctx, &lexmodelsv2.DescribeBotLocaleInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &id})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"LocaleId": id}
	putString(out, "Description", d.Description)
	if d.NluIntentConfidenceThreshold != nil {
		out["NluConfidenceThreshold"] = *d.NluIntentConfidenceThreshold
	}
	if d.VoiceSettings != nil {
		out["VoiceSettings"] = sdkModel(*d.VoiceSettings)
	}
	if d.SpeechDetectionSensitivity != "" {
		out["SpeechDetectionSensitivity"] = string(d.SpeechDetectionSensitivity)
	}
	slotTypes, typeNames, err := w.slotTypes(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(slotTypes) > 0 {
		out["SlotTypes"] = slotTypes
	}
	intents, err := w.intents(ctx, id, typeNames, lexDeclaresFallback(declared))
	if err != nil {
		return nil, err
	}
	if len(intents) > 0 {
		out["Intents"] = intents
	}
	return out, nil
}

// lexDeclaresFallback reports whether a declared locale declares the
// built-in fallback intent.
func lexDeclaresFallback(declared map[string]any) bool {
	for _, in := range objectsAt(declared, "Intents") {
		if in["ParentIntentSignature"] == lexFallbackSignature {
			return true
		}
	}
	return false
}

// slotTypes reads a locale's custom slot types; typeNames maps their ids
// to their names.
func (w *lexWalk) slotTypes(ctx context.Context, locale string) (out []any, typeNames map[string]string, err error) {
	typeNames = map[string]string{}
	var ids []string
	p := lexmodelsv2.NewListSlotTypesPaginator(w.api, &lexmodelsv2.ListSlotTypesInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, MaxResults: aws.Int32(lexPage)})
	for p.HasMorePages() {
		if err := w.call(); err != nil {
			return nil, nil, err
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range page.SlotTypeSummaries {
			if strings.HasPrefix(aws.ToString(s.SlotTypeName), "AMAZON.") {
				continue // built-in: not the bot's, never described
			}
			ids = append(ids, aws.ToString(s.SlotTypeId))
		}
	}
	for _, id := range ids {
		if err := w.call(); err != nil {
			return nil, nil, err
		}
		d, err := w.api.DescribeSlotType(ctx, &lexmodelsv2.DescribeSlotTypeInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, SlotTypeId: aws.String(id)})
		if err != nil {
			return nil, nil, err
		}
		st, err := lexSlotType(d)
		if err != nil {
			return nil, nil, err
		}
		typeNames[id] = aws.ToString(d.SlotTypeName)
		out = append(out, st)
	}
	return out, typeNames, nil
}

// lexSlotType projects a DescribeSlotType answer.
func lexSlotType(d *lexmodelsv2.DescribeSlotTypeOutput) (map[string]any, error) {
	if d.SlotTypeName == nil {
		return nil, skip("a slot type answered without its name")
	}
	out := map[string]any{"Name": *d.SlotTypeName}
	putString(out, "Description", d.Description)
	putString(out, "ParentSlotTypeSignature", d.ParentSlotTypeSignature)
	if d.SlotTypeValues != nil {
		if v, _ := sdkValue(reflect.ValueOf(d.SlotTypeValues)).([]any); len(v) > 0 {
			out["SlotTypeValues"] = v
		}
	}
	if vs := d.ValueSelectionSetting; vs != nil {
		m := sdkModel(*vs)
		if vs.ResolutionStrategy != "" {
			s, ok := lexResolution[vs.ResolutionStrategy]
			if !ok {
				return nil, skip(fmt.Sprintf("slot type %s: unknown resolution strategy %q", *d.SlotTypeName, vs.ResolutionStrategy))
			}
			m["ResolutionStrategy"] = s
		}
		out["ValueSelectionSetting"] = m
	}
	return out, nil
}

// intents reads a locale's intents with their slots.
func (w *lexWalk) intents(ctx context.Context, locale string, typeNames map[string]string, keepFallback bool) ([]any, error) {
	var ids []string
	p := lexmodelsv2.NewListIntentsPaginator(w.api, &lexmodelsv2.ListIntentsInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, MaxResults: aws.Int32(lexPage)})
	for p.HasMorePages() {
		if err := w.call(); err != nil {
			return nil, err
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, in := range page.IntentSummaries {
			ids = append(ids, aws.ToString(in.IntentId))
		}
	}
	var out []any
	for _, id := range ids {
		if err := w.call(); err != nil {
			return nil, err
		}
		d, err := w.api.DescribeIntent(ctx, &lexmodelsv2.DescribeIntentInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, IntentId: aws.String(id)})
		if err != nil {
			return nil, err
		}
		slots, slotNames, err := w.slots(ctx, locale, id, typeNames)
		if err != nil {
			return nil, err
		}
		in, err := lexIntent(d, slots, slotNames)
		if err != nil {
			return nil, err
		}
		if !keepFallback && lexAWSFallback(in) {
			continue
		}
		out = append(out, in)
	}
	return out, nil
}

// lexAWSFallback reports whether an intent is the fallback intent as Lex
// makes it.
func lexAWSFallback(in map[string]any) bool {
	if in["ParentIntentSignature"] != lexFallbackSignature {
		return false
	}
	for k := range in {
		if k != "Name" && k != "ParentIntentSignature" && k != "Description" {
			return false
		}
	}
	return true
}

// lexIntent projects a DescribeIntent answer and the intent's slots.
func lexIntent(d *lexmodelsv2.DescribeIntentOutput, slots []any, slotNames map[string]string) (map[string]any, error) {
	if d.IntentName == nil {
		return nil, skip("an intent answered without its name")
	}
	name := *d.IntentName
	out := map[string]any{"Name": name}
	putString(out, "Description", d.Description)
	putString(out, "DisplayName", d.IntentDisplayName)
	putString(out, "ParentIntentSignature", d.ParentIntentSignature)
	putList(out, "SampleUtterances", d.SampleUtterances)
	putList(out, "InputContexts", d.InputContexts)
	putList(out, "OutputContexts", d.OutputContexts)
	if d.DialogCodeHook != nil {
		out["DialogCodeHook"] = map[string]any{"Enabled": d.DialogCodeHook.Enabled}
	}
	if h := d.FulfillmentCodeHook; h != nil {
		m := map[string]any{"Enabled": h.Enabled}
		if h.Active != nil {
			m["IsActive"] = *h.Active
		}
		out["FulfillmentCodeHook"] = m
	}
	if d.KendraConfiguration != nil {
		out["KendraConfiguration"] = sdkModel(*d.KendraConfiguration)
	}
	if len(d.SlotPriorities) > 0 {
		prios := make([]any, 0, len(d.SlotPriorities))
		for _, sp := range d.SlotPriorities {
			n, ok := slotNames[aws.ToString(sp.SlotId)]
			if !ok || sp.Priority == nil {
				return nil, skip(fmt.Sprintf("intent %s: slot priority names slot %q, which the intent's slots do not hold", name, aws.ToString(sp.SlotId)))
			}
			prios = append(prios, map[string]any{"Priority": float64(*sp.Priority), "SlotName": n})
		}
		out["SlotPriorities"] = prios
	}
	if len(slots) > 0 {
		out["Slots"] = slots
	}
	return out, nil
}

// slots reads an intent's slots; slotNames maps their ids to their names.
func (w *lexWalk) slots(ctx context.Context, locale, intent string, typeNames map[string]string) (out []any, slotNames map[string]string, err error) {
	slotNames = map[string]string{}
	var ids []string
	p := lexmodelsv2.NewListSlotsPaginator(w.api, &lexmodelsv2.ListSlotsInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, IntentId: &intent, MaxResults: aws.Int32(lexPage)})
	for p.HasMorePages() {
		if err := w.call(); err != nil {
			return nil, nil, err
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range page.SlotSummaries {
			ids = append(ids, aws.ToString(s.SlotId))
		}
	}
	for _, id := range ids {
		if err := w.call(); err != nil {
			return nil, nil, err
		}
		d, err := w.api.DescribeSlot(ctx, &lexmodelsv2.DescribeSlotInput{BotId: &w.bot, BotVersion: aws.String(lexDraft), LocaleId: &locale, IntentId: &intent, SlotId: aws.String(id)})
		if err != nil {
			return nil, nil, err
		}
		s, err := lexSlot(d, typeNames)
		if err != nil {
			return nil, nil, err
		}
		slotNames[id] = aws.ToString(d.SlotName)
		out = append(out, s)
	}
	return out, slotNames, nil
}

// lexSlot projects a DescribeSlot answer.
func lexSlot(d *lexmodelsv2.DescribeSlotOutput, typeNames map[string]string) (map[string]any, error) {
	if d.SlotName == nil {
		return nil, skip("a slot answered without its name")
	}
	name := *d.SlotName
	out := map[string]any{"Name": name}
	putString(out, "Description", d.Description)
	if t := aws.ToString(d.SlotTypeId); t != "" {
		n, ok := typeNames[t]
		switch {
		case ok:
		case strings.HasPrefix(t, "AMAZON."):
			n = t // a built-in type's id is its name
		default:
			return nil, skip(fmt.Sprintf("slot %s: slot type %q is none of the locale's", name, t))
		}
		out["SlotTypeName"] = n
	}
	if d.ObfuscationSetting != nil {
		out["ObfuscationSetting"] = sdkModel(*d.ObfuscationSetting)
	}
	if d.MultipleValuesSetting != nil {
		out["MultipleValuesSetting"] = sdkModel(*d.MultipleValuesSetting)
	}
	if v := d.ValueElicitationSetting; v != nil {
		m := map[string]any{}
		if v.SlotConstraint != "" {
			m["SlotConstraint"] = string(v.SlotConstraint)
		}
		if v.DefaultValueSpecification != nil {
			m["DefaultValueSpecification"] = sdkModel(*v.DefaultValueSpecification)
		}
		putList(m, "SampleUtterances", v.SampleUtterances)
		if ps := v.PromptSpecification; ps != nil {
			p := map[string]any{}
			if ps.MaxRetries != nil {
				p["MaxRetries"] = float64(*ps.MaxRetries)
			}
			if ps.AllowInterrupt != nil {
				p["AllowInterrupt"] = *ps.AllowInterrupt
			}
			if ps.MessageSelectionStrategy != "" {
				p["MessageSelectionStrategy"] = string(ps.MessageSelectionStrategy)
			}
			if ps.MessageGroups != nil {
				groups, _ := sdkValue(reflect.ValueOf(ps.MessageGroups)).([]any)
				for _, g := range groups {
					gm, _ := g.(map[string]any)
					renameKey(objectAt(gm, "Message"), "SsmlMessage", "SSMLMessage")
					for _, v := range objectsAt(gm, "Variations") {
						renameKey(v, "SsmlMessage", "SSMLMessage")
					}
				}
				p["MessageGroupsList"] = groups
			}
			m["PromptSpecification"] = p
		}
		out["ValueElicitationSetting"] = m
	}
	return out, nil
}

// putString sets m[k] to *s when s is set.
func putString(m map[string]any, k string, s *string) {
	if s != nil {
		m[k] = *s
	}
}

// putList sets m[k] to the projection of a non-empty SDK list.
func putList[T any](m map[string]any, k string, l []T) {
	if len(l) == 0 {
		return
	}
	if v, _ := sdkValue(reflect.ValueOf(l)).([]any); len(v) > 0 {
		m[k] = v
	}
}

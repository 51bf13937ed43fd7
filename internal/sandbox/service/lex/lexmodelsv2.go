package lex

import (
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// lexNode is one slot type, intent or slot of a locale, as the model
// holds it, with its id.
type lexNode struct {
	id, name string
	model    map[string]any
	slots    []lexNode // an intent's
}

// lexLocale is one DRAFT locale of a bot.
type lexLocale struct {
	id        string
	model     map[string]any
	slotTypes []lexNode
	intents   []lexNode
}

// lexFallbackID is the id Lex gives the built-in fallback intent.
const lexFallbackID = "FALLBCKINT"

// lexID derives a node's id.
func lexID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return base32.StdEncoding.EncodeToString(h[:])[:10]
}

// lexLocales finds the bot of a call and its DRAFT locales.
func lexLocales(st *world.State, c *wire.Call) ([]lexLocale, error) {
	bot := c.Params["bot"]
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Lex::Bot") {
		id := world.FieldString(r, "Id")
		if id == "" {
			id = r.CCID()
		}
		if id != bot || r.Deleted {
			continue
		}
		if v := c.Params["version"]; v != "DRAFT" {
			return nil, wire.Errf(404, "ResourceNotFoundException", "Could not find version %s of bot %s.", v, bot)
		}
		var out []lexLocale
		for _, l := range world.Objects(world.FieldValue(r, "BotLocales")) {
			loc := lexLocale{model: l}
			loc.id, _ = l["LocaleId"].(string)
			for _, st := range world.Objects(l["SlotTypes"]) {
				n, _ := st["Name"].(string)
				loc.slotTypes = append(loc.slotTypes, lexNode{id: lexID(bot, loc.id, "slottype", n), name: n, model: st})
			}
			fallback := false
			for _, in := range world.Objects(l["Intents"]) {
				n, _ := in["Name"].(string)
				node := lexNode{id: lexID(bot, loc.id, "intent", n), name: n, model: in}
				if in["ParentIntentSignature"] == "AMAZON.FallbackIntent" {
					node.id, fallback = lexFallbackID, true
				}
				for _, sl := range world.Objects(in["Slots"]) {
					sn, _ := sl["Name"].(string)
					node.slots = append(node.slots, lexNode{id: lexID(bot, loc.id, n, "slot", sn), name: sn, model: sl})
				}
				loc.intents = append(loc.intents, node)
			}
			if !fallback {
				loc.intents = append(loc.intents, lexNode{id: lexFallbackID, name: "FallbackIntent", model: map[string]any{
					"Name": "FallbackIntent", "ParentIntentSignature": "AMAZON.FallbackIntent", "Description": "Default intent when no other intent matches",
				}})
			}
			out = append(out, loc)
		}
		return out, nil
	}
	return nil, wire.Errf(404, "ResourceNotFoundException", "Failed to retrieve resource since it does not exist: bot %s.", bot)
}

// lexLocaleOf finds the call's locale.
func lexLocaleOf(st *world.State, c *wire.Call) (*lexLocale, error) {
	locs, err := lexLocales(st, c)
	if err != nil {
		return nil, err
	}
	for i := range locs {
		if locs[i].id == c.Params["locale"] {
			return &locs[i], nil
		}
	}
	return nil, wire.Errf(404, "ResourceNotFoundException", "Could not find locale %s of bot %s.", c.Params["locale"], c.Params["bot"])
}

// lexNodeByID finds a node.
func lexNodeByID(nodes []lexNode, id, kind string) (*lexNode, error) {
	for i := range nodes {
		if nodes[i].id == id {
			return &nodes[i], nil
		}
	}
	return nil, wire.Errf(404, "ResourceNotFoundException", "Could not find %s %s.", kind, id)
}

// lexPageOf pages total entries by the call's maxResults and nextToken.
func lexPageOf(c *wire.Call, prefix string, total int) (lo, hi int, next string, err error) {
	var in struct {
		MaxResults *int
		NextToken  string
	}
	if err := c.Decode(&in); err != nil {
		return 0, 0, "", err
	}
	size := ""
	if in.MaxResults != nil {
		size = strconv.Itoa(*in.MaxResults)
	}
	cur, err := wire.Paging{Prefix: prefix, Default: 100, Min: 1, Max: 1000,
		BadSize: func(string) error {
			return wire.Errf(400, "ValidationException", "maxResults must be between 1 and 1000")
		},
		BadToken: wire.Errf(400, "ValidationException", "Invalid nextToken")}.StartText(c, size, in.NextToken)
	if err != nil {
		return 0, 0, "", err
	}
	lo, hi, next = cur.Cut(total)
	return lo, hi, next, nil
}

// lexHead is the identification every answer of a locale carries.
func lexHead(c *wire.Call) map[string]any {
	out := map[string]any{"botId": c.Params["bot"], "botVersion": c.Params["version"]}
	if l := c.Params["locale"]; l != "" {
		out["localeId"] = l
	}
	return out
}

// lexAPIKeys are the template keys the API names otherwise than by
// camelCasing them.
var lexAPIKeys = map[string]string{
	"NluConfidenceThreshold": "nluIntentConfidenceThreshold",
	"MessageGroupsList":      "messageGroups",
	"SSMLMessage":            "ssmlMessage",
	"IsActive":               "active",
	"DisplayName":            "intentDisplayName",
	"DTMFSpecification":      "dtmfSpecification",
}

// lexFreeForm are the template keys whose maps are keyed by user data.
var lexFreeForm = map[string]bool{"PromptAttemptsSpecification": true, "SlotSpecifications": true}

// lexAPI answers a template value in the API's shape; drop names the
// top-level keys left out.
func lexAPI(v any, drop ...string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if world.Contains(drop, k) {
				continue
			}
			if lexFreeForm[k] {
				m := map[string]any{}
				for fk, fe := range world.Object(e) {
					m[fk] = lexAPI(fe)
				}
				out[lexAPIKey(k)] = m
				continue
			}
			out[lexAPIKey(k)] = lexAPI(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = lexAPI(e)
		}
		return out
	}
	return v
}

func lexAPIKey(k string) string {
	if a, ok := lexAPIKeys[k]; ok {
		return a
	}
	if k == "" {
		return k
	}
	return strings.ToLower(k[:1]) + k[1:]
}

// lexResolutionAPI spells the template's resolution strategies as the API
// does.
var lexResolutionAPI = map[string]string{"ORIGINAL_VALUE": "OriginalValue", "TOP_RESOLUTION": "TopResolution", "CONCATENATION": "Concatenation"}

// lexScope is what a call on a locale names: the locale, and the intent
// when the call names one (else nil).
type lexScope struct {
	loc    *lexLocale
	intent *lexNode
}

// lexOp serves a call on a locale: under the world's read lock it finds
// the locale and the intent the call names, and answers f's reply with
// the identification every answer of a locale carries.
func lexOp(f func(c *wire.Call, s lexScope) (map[string]any, error)) wire.Handler {
	return func(st *world.State, c *wire.Call) (any, error) {
		st.RLock()
		defer st.RUnlock()
		var s lexScope
		var err error
		if s.loc, err = lexLocaleOf(st, c); err != nil {
			return nil, err
		}
		if id, ok := c.Params["intent"]; ok {
			if s.intent, err = lexNodeByID(s.loc.intents, id, "intent"); err != nil {
				return nil, err
			}
		}
		out, err := f(c, s)
		if err != nil {
			return nil, err
		}
		for k, v := range lexHead(c) {
			out[k] = v
		}
		return out, nil
	}
}

// lexList answers one page of a List call: each item's summary under key,
// and nextToken when more follow.
func lexList[T any](c *wire.Call, prefix, key string, items []T, summary func(T) map[string]any) (map[string]any, error) {
	lo, hi, next, err := lexPageOf(c, prefix, len(items))
	if err != nil {
		return nil, err
	}
	sums := []any{}
	for _, it := range items[lo:hi] {
		sums = append(sums, summary(it))
	}
	out := map[string]any{key: sums}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}

// lexWithDescription adds the model's Description to a summary.
func lexWithDescription(sum, model map[string]any) map[string]any {
	if d, ok := model["Description"]; ok {
		sum["description"] = d
	}
	return sum
}

func lexListBotLocales(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	locs, err := lexLocales(st, c)
	if err != nil {
		return nil, err
	}
	out, err := lexList(c, "lexlocales", "botLocaleSummaries", locs, func(l lexLocale) map[string]any {
		return lexWithDescription(map[string]any{"localeId": l.id, "localeName": l.id, "botLocaleStatus": "Built"}, l.model)
	})
	if err != nil {
		return nil, err
	}
	for k, v := range lexHead(c) {
		out[k] = v
	}
	return out, nil
}

func lexDescribeBotLocale(_ *wire.Call, s lexScope) (map[string]any, error) {
	l := s.loc
	out := lexAPI(l.model, "Intents", "SlotTypes", "CustomVocabulary").(map[string]any)
	out["localeName"], out["botLocaleStatus"] = l.id, "Built"
	out["intentsCount"], out["slotTypesCount"] = len(l.intents), len(l.slotTypes)
	return out, nil
}

func lexListSlotTypes(c *wire.Call, s lexScope) (map[string]any, error) {
	return lexList(c, "lexslottypes", "slotTypeSummaries", s.loc.slotTypes, func(st lexNode) map[string]any {
		sum := map[string]any{"slotTypeId": st.id, "slotTypeName": st.name, "slotTypeCategory": "Custom"}
		if p, ok := st.model["ParentSlotTypeSignature"]; ok {
			sum["parentSlotTypeSignature"], sum["slotTypeCategory"] = p, "Extended"
		}
		return lexWithDescription(sum, st.model)
	})
}

func lexDescribeSlotType(c *wire.Call, s lexScope) (map[string]any, error) {
	typ, err := lexNodeByID(s.loc.slotTypes, c.Params["slotType"], "slot type")
	if err != nil {
		return nil, err
	}
	out := lexAPI(typ.model, "Name").(map[string]any)
	if vs := world.Object(out["valueSelectionSetting"]); vs != nil {
		if r, ok := vs["resolutionStrategy"].(string); ok && lexResolutionAPI[r] != "" {
			vs["resolutionStrategy"] = lexResolutionAPI[r]
		}
	}
	out["slotTypeId"], out["slotTypeName"] = typ.id, typ.name
	return out, nil
}

func lexListIntents(c *wire.Call, s lexScope) (map[string]any, error) {
	return lexList(c, "lexintents", "intentSummaries", s.loc.intents, func(in lexNode) map[string]any {
		sum := map[string]any{"intentId": in.id, "intentName": in.name}
		for _, k := range []string{"Description", "ParentIntentSignature", "InputContexts", "OutputContexts"} {
			if v, ok := in.model[k]; ok {
				sum[lexAPIKey(k)] = lexAPI(v)
			}
		}
		return sum
	})
}

func lexDescribeIntent(_ *wire.Call, s lexScope) (map[string]any, error) {
	in := s.intent
	out := lexAPI(in.model, "Name", "Slots", "SlotPriorities").(map[string]any)
	if sp := world.Objects(in.model["SlotPriorities"]); sp != nil {
		prios := []any{}
		for _, p := range sp {
			name, _ := p["SlotName"].(string)
			id := name // a name no slot has: answered as it is
			for _, sl := range in.slots {
				if sl.name == name {
					id = sl.id
				}
			}
			prios = append(prios, map[string]any{"priority": p["Priority"], "slotId": id})
		}
		out["slotPriorities"] = prios
	}
	out["intentId"], out["intentName"] = in.id, in.name
	return out, nil
}

func lexListSlots(c *wire.Call, s lexScope) (map[string]any, error) {
	out, err := lexList(c, "lexslots", "slotSummaries", s.intent.slots, func(sl lexNode) map[string]any {
		sum := map[string]any{"slotId": sl.id, "slotName": sl.name, "slotTypeId": lexSlotTypeID(s.loc, sl.model)}
		if sc, ok := world.Object(sl.model["ValueElicitationSetting"])["SlotConstraint"]; ok {
			sum["slotConstraint"] = sc
		}
		return lexWithDescription(sum, sl.model)
	})
	if err != nil {
		return nil, err
	}
	out["intentId"] = s.intent.id
	return out, nil
}

// lexSlotTypeID answers a slot's SlotTypeName as the slot type's id: a
// custom type's, else the name (a built-in type's id is its name).
func lexSlotTypeID(l *lexLocale, slot map[string]any) string {
	name, _ := slot["SlotTypeName"].(string)
	for _, st := range l.slotTypes {
		if st.name == name {
			return st.id
		}
	}
	return name
}

func lexDescribeSlot(c *wire.Call, s lexScope) (map[string]any, error) {
	sl, err := lexNodeByID(s.intent.slots, c.Params["slot"], "slot")
	if err != nil {
		return nil, err
	}
	out := lexAPI(sl.model, "Name", "SlotTypeName").(map[string]any)
	out["intentId"], out["slotId"], out["slotName"], out["slotTypeId"] = s.intent.id, sl.id, sl.name, lexSlotTypeID(s.loc, sl.model)
	return out, nil
}

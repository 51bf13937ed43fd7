package lex

import (
	"crypto/sha256"
	"encoding/base32"
	"net/http"
	"net/url"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Service serves the Lex V2 models API (REST-JSON, camelCase;
// signing name lex) read calls on a bot's DRAFT version from the world's
// AWS::Lex::Bot models (by Id, else the identifier), whose BotLocales (the
// template's shape) are the DRAFT locales:
//
//	POST /bots/{botId}/botversions/DRAFT/botlocales/                              ListBotLocales
//	GET  …/botlocales/{localeId}/                                                 DescribeBotLocale
//	POST …/botlocales/{localeId}/slottypes/  GET …/slottypes/{slotTypeId}/        ListSlotTypes DescribeSlotType
//	POST …/botlocales/{localeId}/intents/    GET …/intents/{intentId}/            ListIntents DescribeIntent
//	POST …/intents/{intentId}/slots/         GET …/slots/{slotId}/                ListSlots DescribeSlot
//
// Each node gets a stable 10-character id (derived from the bot, the
// locale and its name); a slot's SlotTypeName is answered as the slot
// type's id (a built-in AMAZON.* type's id is its name) and a slot
// priority's SlotName as the slot's id. The template's keys are answered
// camelCased, with the API's own names where they differ
// (nluIntentConfidenceThreshold, messageGroups, ssmlMessage, active,
// intentDisplayName) and the slot value resolution strategy in the API's
// spelling (ORIGINAL_VALUE → OriginalValue). Like Lex, every locale holds
// the built-in AMAZON.FallbackIntent (id FALLBCKINT): the model's own when
// it declares one, else Lex's, listed last. The List calls page by
// maxResults (1-1000, default 100) and nextToken. An unknown bot, version
// other than DRAFT, locale, intent, slot or slot type is a
// ResourceNotFoundException (404); a bad page size or token a
// ValidationException.
func Service() *wire.Service {
	return &wire.Service{
		Name:     "lex",
		Protocol: wire.ProtoRESTJSON,
		Throttle: wire.Error{Status: 429, Code: "ThrottlingException"},
		Deny:     wire.Error{Status: 403, Code: "AccessDeniedException"},
		Route:    lexRoute,
		Ops: map[string]wire.Handler{
			"ListBotLocales":    lexListBotLocales,
			"DescribeBotLocale": lexDescribeBotLocale,
			"ListSlotTypes":     lexListSlotTypes,
			"DescribeSlotType":  lexDescribeSlotType,
			"ListIntents":       lexListIntents,
			"DescribeIntent":    lexDescribeIntent,
			"ListSlots":         lexListSlots,
			"DescribeSlot":      lexDescribeSlot,
		},
	}
}

func lexRoute(r *http.Request) (string, map[string]string) {
	segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	if len(segs) < 5 || segs[0] != "bots" || segs[2] != "botversions" || segs[4] != "botlocales" {
		return "", nil
	}
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil {
			return "", nil
		}
		segs[i] = u
	}
	p := map[string]string{"bot": segs[1], "version": segs[3]}
	post, get := r.Method == http.MethodPost, r.Method == http.MethodGet
	switch n := len(segs); {
	case n == 5 && post:
		return "ListBotLocales", p
	case n == 6 && get:
		p["locale"] = segs[5]
		return "DescribeBotLocale", p
	case n >= 7:
		p["locale"] = segs[5]
		switch {
		case n == 7 && post && segs[6] == "slottypes":
			return "ListSlotTypes", p
		case n == 8 && get && segs[6] == "slottypes":
			p["slotType"] = segs[7]
			return "DescribeSlotType", p
		case n == 7 && post && segs[6] == "intents":
			return "ListIntents", p
		case n == 8 && get && segs[6] == "intents":
			p["intent"] = segs[7]
			return "DescribeIntent", p
		case n == 9 && post && segs[6] == "intents" && segs[8] == "slots":
			p["intent"] = segs[7]
			return "ListSlots", p
		case n == 10 && get && segs[6] == "intents" && segs[8] == "slots":
			p["intent"], p["slot"] = segs[7], segs[9]
			return "DescribeSlot", p
		}
	}
	return "", nil
}

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
	size := 100
	if in.MaxResults != nil {
		if *in.MaxResults < 1 || *in.MaxResults > 1000 {
			return 0, 0, "", wire.Errf(400, "ValidationException", "maxResults must be between 1 and 1000")
		}
		size = *in.MaxResults
	}
	off, ok := wire.PageOffset(prefix, in.NextToken)
	if !ok {
		return 0, 0, "", wire.Errf(400, "ValidationException", "Invalid nextToken")
	}
	lo, hi, n := wire.Page(total, off, size)
	if n >= 0 {
		next = wire.PageToken(prefix, n)
	}
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

func lexListBotLocales(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	locs, err := lexLocales(st, c)
	if err != nil {
		return nil, err
	}
	lo, hi, next, err := lexPageOf(c, "lexlocales", len(locs))
	if err != nil {
		return nil, err
	}
	sums := []any{}
	for _, l := range locs[lo:hi] {
		sum := map[string]any{"localeId": l.id, "localeName": l.id, "botLocaleStatus": "Built"}
		if d, ok := l.model["Description"]; ok {
			sum["description"] = d
		}
		sums = append(sums, sum)
	}
	out := lexHead(c)
	out["botLocaleSummaries"] = sums
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}

func lexDescribeBotLocale(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	out := lexAPI(l.model, "Intents", "SlotTypes", "CustomVocabulary").(map[string]any)
	for k, v := range lexHead(c) {
		out[k] = v
	}
	out["localeName"], out["botLocaleStatus"] = l.id, "Built"
	out["intentsCount"], out["slotTypesCount"] = len(l.intents), len(l.slotTypes)
	return out, nil
}

func lexListSlotTypes(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	lo, hi, next, err := lexPageOf(c, "lexslottypes", len(l.slotTypes))
	if err != nil {
		return nil, err
	}
	sums := []any{}
	for _, st := range l.slotTypes[lo:hi] {
		sum := map[string]any{"slotTypeId": st.id, "slotTypeName": st.name, "slotTypeCategory": "Custom"}
		if p, ok := st.model["ParentSlotTypeSignature"]; ok {
			sum["parentSlotTypeSignature"], sum["slotTypeCategory"] = p, "Extended"
		}
		if d, ok := st.model["Description"]; ok {
			sum["description"] = d
		}
		sums = append(sums, sum)
	}
	out := lexHead(c)
	out["slotTypeSummaries"] = sums
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}

func lexDescribeSlotType(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	typ, err := lexNodeByID(l.slotTypes, c.Params["slotType"], "slot type")
	if err != nil {
		return nil, err
	}
	out := lexAPI(typ.model, "Name").(map[string]any)
	if vs := world.Object(out["valueSelectionSetting"]); vs != nil {
		if r, ok := vs["resolutionStrategy"].(string); ok && lexResolutionAPI[r] != "" {
			vs["resolutionStrategy"] = lexResolutionAPI[r]
		}
	}
	for k, v := range lexHead(c) {
		out[k] = v
	}
	out["slotTypeId"], out["slotTypeName"] = typ.id, typ.name
	return out, nil
}

func lexListIntents(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	lo, hi, next, err := lexPageOf(c, "lexintents", len(l.intents))
	if err != nil {
		return nil, err
	}
	sums := []any{}
	for _, in := range l.intents[lo:hi] {
		sum := map[string]any{"intentId": in.id, "intentName": in.name}
		for _, k := range []string{"Description", "ParentIntentSignature", "InputContexts", "OutputContexts"} {
			if v, ok := in.model[k]; ok {
				sum[lexAPIKey(k)] = lexAPI(v)
			}
		}
		sums = append(sums, sum)
	}
	out := lexHead(c)
	out["intentSummaries"] = sums
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}

func lexDescribeIntent(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	in, err := lexNodeByID(l.intents, c.Params["intent"], "intent")
	if err != nil {
		return nil, err
	}
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
	for k, v := range lexHead(c) {
		out[k] = v
	}
	out["intentId"], out["intentName"] = in.id, in.name
	return out, nil
}

func lexListSlots(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	in, err := lexNodeByID(l.intents, c.Params["intent"], "intent")
	if err != nil {
		return nil, err
	}
	lo, hi, next, err := lexPageOf(c, "lexslots", len(in.slots))
	if err != nil {
		return nil, err
	}
	sums := []any{}
	for _, sl := range in.slots[lo:hi] {
		sum := map[string]any{"slotId": sl.id, "slotName": sl.name, "slotTypeId": lexSlotTypeID(l, sl.model)}
		if d, ok := sl.model["Description"]; ok {
			sum["description"] = d
		}
		if sc, ok := world.Object(sl.model["ValueElicitationSetting"])["SlotConstraint"]; ok {
			sum["slotConstraint"] = sc
		}
		sums = append(sums, sum)
	}
	out := lexHead(c)
	out["intentId"], out["slotSummaries"] = in.id, sums
	if next != "" {
		out["nextToken"] = next
	}
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

func lexDescribeSlot(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	l, err := lexLocaleOf(st, c)
	if err != nil {
		return nil, err
	}
	in, err := lexNodeByID(l.intents, c.Params["intent"], "intent")
	if err != nil {
		return nil, err
	}
	sl, err := lexNodeByID(in.slots, c.Params["slot"], "slot")
	if err != nil {
		return nil, err
	}
	out := lexAPI(sl.model, "Name", "SlotTypeName").(map[string]any)
	for k, v := range lexHead(c) {
		out[k] = v
	}
	out["intentId"], out["slotId"], out["slotName"], out["slotTypeId"] = in.id, sl.id, sl.name, lexSlotTypeID(l, sl.model)
	return out, nil
}

package lex

import "github.com/realdrift/realdrift/internal/sandbox/wire"

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
	const locale = "/bots/{bot}/botversions/{version}/botlocales/{locale}"
	return wire.RESTJSON("lex", wire.Paths(map[string]string{
		"POST /bots/{bot}/botversions/{version}/botlocales": "ListBotLocales",
		"GET " + locale:                                    "DescribeBotLocale",
		"POST " + locale + "/slottypes":                    "ListSlotTypes",
		"GET " + locale + "/slottypes/{slotType}":          "DescribeSlotType",
		"POST " + locale + "/intents":                      "ListIntents",
		"GET " + locale + "/intents/{intent}":              "DescribeIntent",
		"POST " + locale + "/intents/{intent}/slots":       "ListSlots",
		"GET " + locale + "/intents/{intent}/slots/{slot}": "DescribeSlot",
	}), wire.Ops{
		"ListBotLocales":    lexListBotLocales,
		"DescribeBotLocale": lexOp(lexDescribeBotLocale),
		"ListSlotTypes":     lexOp(lexListSlotTypes),
		"DescribeSlotType":  lexOp(lexDescribeSlotType),
		"ListIntents":       lexOp(lexListIntents),
		"DescribeIntent":    lexOp(lexDescribeIntent),
		"ListSlots":         lexOp(lexListSlots),
		"DescribeSlot":      lexOp(lexDescribeSlot),
	}).Throttles(429, "ThrottlingException")
}

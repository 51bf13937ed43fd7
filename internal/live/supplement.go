package live

import "context"

// supplementReader completes a Cloud Control model with the properties its
// read handler does not return, read through the service's own API. It
// returns the properties it read; one the answer does not hold is left
// out (the resource has no such setting), never guessed.
type supplementReader func(ctx context.Context, c *Clients, r Request, model map[string]any) (map[string]any, error)

// supplementEntry is one supplemented type: the properties the supplement
// owns and the reader that reads them.
type supplementEntry struct {
	// Props are the properties the supplement reads. Whatever Cloud
	// Control's model holds under them is replaced by the supplement's
	// answer, or removed when the supplement fails (unread: a readGap).
	Props []string
	// WriteOnly are those of Props the registry schema marks write-only
	// (the anchor's OVERRIDE_READABLE_WRITEONLY): read back by the
	// supplement, they are compared like any other property.
	WriteOnly []string
	Read      supplementReader
}

// supplements is the one registration table of SDK supplements: types
// Cloud Control reads, but without some properties.
func supplements() map[string]supplementEntry {
	return map[string]supplementEntry{
		"AWS::ECS::Service":                       {Props: ecsServiceProps, WriteOnly: ecsServiceProps, Read: readECSServiceSupplement},
		"AWS::ElastiCache::ReplicationGroup":      {Props: cacheReplicationGroupProps, WriteOnly: cacheReplicationGroupProps, Read: readCacheReplicationGroupSupplement},
		"AWS::ElastiCache::User":                  {Props: cacheUserProps, WriteOnly: cacheUserProps, Read: readCacheUserSupplement},
		"AWS::ElasticBeanstalk::Environment":      {Props: ebEnvironmentProps, WriteOnly: ebEnvironmentProps, Read: readEBEnvironmentSupplement},
		"AWS::ElasticLoadBalancingV2::TrustStore": {Props: trustStoreProps, Read: readTrustStoreSupplement},
		"AWS::Glue::Job":                          {Props: glueJobProps, Read: readGlueJobSupplement},
		"AWS::Lambda::Function":                   {Props: lambdaFunctionProps, Read: readLambdaFunctionSupplement},
		"AWS::Lex::Bot":                           {Props: lexBotProps, WriteOnly: lexBotProps, Read: readLexBotSupplement},
		"AWS::MSK::Configuration":                 {Props: mskConfigurationProps, WriteOnly: mskConfigurationProps, Read: readMSKConfigurationSupplement},
		"AWS::MemoryDB::ParameterGroup":           {Props: memoryDBParameterGroupProps, WriteOnly: memoryDBParameterGroupProps, Read: readMemoryDBParameterGroupSupplement},
		"AWS::MemoryDB::User":                     {Props: memoryDBUserProps, WriteOnly: memoryDBUserProps, Read: readMemoryDBUserSupplement},
		"AWS::RedshiftServerless::Workgroup":      {Props: rsWorkgroupProps, WriteOnly: rsWorkgroupProps, Read: readRSWorkgroupSupplement},
		"AWS::SSM::Parameter":                     {Props: ssmParameterProps, WriteOnly: ssmParameterProps, Read: readSSMParameterSupplement},
	}
}

// supplement merges the type's supplement into model. The supplement's
// properties are its answer only: a failed supplement leaves them unread
// (readGap) and the rest of the model is still compared. It returns the
// properties a failed supplement left unread, each with why.
func supplement(ctx context.Context, c *Clients, r Request, model map[string]any) (map[string]any, map[string]string) {
	sup, ok := supplements()[r.Type]
	if !ok || model == nil {
		return model, nil
	}
	add, err := sup.Read(ctx, c, r, model)
	for _, p := range sup.Props {
		delete(model, p)
	}
	if err != nil {
		unread := make(map[string]string, len(sup.Props))
		for _, p := range sup.Props {
			unread[p] = describe(err)
		}
		return model, unread
	}
	for _, p := range sup.Props {
		if v, ok := add[p]; ok {
			model[p] = v
		}
	}
	return model, nil
}

// supplementWriteOnly names the write-only properties t's supplement reads
// back; nil when t has none.
func supplementWriteOnly(t string) []string {
	return supplements()[t].WriteOnly
}

// HasSupplement reports whether t's Cloud Control model is completed by an
// SDK supplement.
func HasSupplement(t string) bool {
	_, ok := supplements()[t]
	return ok
}

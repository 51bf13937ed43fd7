package store

// The DynamoDB table layout. infra/ declares the same table; change both
// together. See the package doc for the items.
const (
	// AttrPK and AttrSK are the table's partition and sort keys (strings).
	AttrPK = "pk"
	AttrSK = "sk"
	// AttrTTL is the TTL attribute: epoch seconds (number).
	AttrTTL = "ttl"
	// GSI1 is the run-id index: partition AttrGSI1PK, sort AttrGSI1SK
	// (strings), projecting the keys plus GSI1NonKeyAttributes.
	GSI1       = "gsi1"
	AttrGSI1PK = "gsi1pk"
	AttrGSI1SK = "gsi1sk"
	// TableBillingMode is on-demand.
	TableBillingMode = "PAY_PER_REQUEST"

	// InlineLimit is the largest value kept inside its item; larger values
	// are split into chunks of ChunkSize bytes. Both leave room under the
	// 400 KB item limit for keys and the other attributes.
	InlineLimit = 300 * 1024
	ChunkSize   = 300 * 1024
)

// Attribute names of the items (not keys, so the table does not declare
// them; listed for readers of the table).
const (
	attrVersion = "v"      // document version (number)
	attrData    = "data"   // inline value (binary)
	attrGen     = "gen"    // chunk generation of a chunked value
	attrChunks  = "chunks" // number of chunks
	attrSize    = "size"   // value length in bytes
	attrSHA     = "sha256" // hex SHA-256 of the value
	attrRecord  = "record" // run record JSON (run and latest items)
	attrStarted = "started"
	attrEntry   = "entry" // index entry JSON
)

// GSI1NonKeyAttributes lists the attributes gsi1 projects besides the keys.
func GSI1NonKeyAttributes() []string { return []string{attrRecord, AttrTTL} }

// Key prefixes and fixed sort keys.
const (
	pkStack       = "STACK#"
	pkIgnore      = "IGNORE#"
	pkResource    = "RES#"
	pkRun         = "RUN#"
	pkAudit       = "AUDIT#"
	skBaseline    = "BASELINE"
	skLatest      = "FINDINGS#LATEST"
	skRunPrefix   = "RUN#"
	skRules       = "RULES"
	skStatePrefix = "STATE#"
	skChunkPrefix = "CHUNK#"
	gsiStack      = "STACK#"
)

package intrinsic

import (
	"encoding/binary"
	"net/netip"
	"strconv"
)

// cidr resolves {"Fn::Cidr": [ipBlock, count, cidrBits]}: the first count
// consecutive subnets of ipBlock, each with cidrBits host bits. Only IPv4 is
// resolved; how CloudFormation spells IPv6 results is not certain, so an
// IPv6 block is Unknown.
func (r *Resolver) cidr(arg any, depth int) any {
	a, bad := args(arg, "Fn::Cidr", 3, 3)
	if bad != nil {
		return *bad
	}
	v, secret, u := r.strict(a, depth)
	if u != nil {
		return *u
	}
	list, ok := v.([]any)
	if !ok || len(list) != 3 {
		return taint(unknown("malformed Fn::Cidr"), secret)
	}
	block, ok := list[0].(string)
	if !ok {
		return taint(unknown("Fn::Cidr block is not a string"), secret)
	}
	count, okCount := integer(list[1])
	bits, okBits := integer(list[2])
	if !okCount || !okBits {
		return taint(unknown("Fn::Cidr count and bits must be integers"), secret)
	}
	subnets, reason := splitIPv4(block, count, bits)
	if reason != "" {
		return taint(unknown(reason), secret)
	}
	return taint(subnets, secret)
}

// splitIPv4 returns count subnets of block with hostBits host bits each,
// or the reason it cannot.
func splitIPv4(block string, count, hostBits int) ([]any, string) {
	prefix, err := netip.ParsePrefix(block)
	if err != nil {
		return nil, "Fn::Cidr block " + strconv.Quote(block) + " is not a CIDR"
	}
	if !prefix.Addr().Is4() {
		return nil, "Fn::Cidr on an IPv6 block is not resolved"
	}
	if prefix.Masked() != prefix {
		return nil, "Fn::Cidr block " + block + " is not a network address"
	}
	if count < 1 || count > 256 {
		return nil, "Fn::Cidr count must be 1-256"
	}
	newLen := 32 - hostBits
	if hostBits < 1 || hostBits > 32 || newLen < prefix.Bits() {
		return nil, "Fn::Cidr bits do not fit the block"
	}
	if avail := uint64(1) << uint(newLen-prefix.Bits()); uint64(count) > avail {
		return nil, "Fn::Cidr asks for more subnets than the block holds"
	}
	a4 := prefix.Addr().As4()
	base := uint64(binary.BigEndian.Uint32(a4[:]))
	step := uint64(1) << uint(hostBits)
	out := make([]any, count)
	for i := range out {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(base+uint64(i)*step))
		out[i] = netip.PrefixFrom(netip.AddrFrom4(b), newLen).String()
	}
	return out, ""
}

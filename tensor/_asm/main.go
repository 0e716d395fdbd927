// Command _asm writes the amd64 transposing copy kernels of package tensor, with avo:
//
//	cd tensor && go generate
//
// It is a module of its own so that avo stays out of the library's go.mod.
//
// A kernel moves one panel of a transpose: element (r, c) of the source, at src + r·es + c·sc,
// goes to dst + r·dr + c·es, for R = 64·panelLines/es rows (panelLines cache lines of each source
// column) and cols columns, a multiple of C = 64/es. It walks across the columns C at a time, so
// that the panel's R destination rows are written as sequential streams and each source line is
// used whole while it is in the cache; it prefetches the source prefetchLines columns ahead. A
// super-tile of R × C elements is 4·panelLines sub-tiles of P = 16/es rows; each sub-tile is
// G = 64/V groups of T = V/es columns, V the vector width in bytes. A group is transposed in
// registers by the unpack network: register k holds, in its 128-bit lane i, the P rows of column
// i·(16/es) + k (one 16-byte load each); log2(P) rounds of interleaves within the lanes leave in
// each register one destination row of T consecutive columns.
package main

import (
	"fmt"
	"math/bits"
	"slices"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// isa is a vector instruction set the kernels are written for.
type isa struct {
	name     string
	width    int                     // vector bytes
	regs     []Register              // the vector registers the network may use
	load     func(m Mem, x Register) // a 16-byte load into the low lane, zeroing the others
	loadFull func(m Mem, v Register)
	insert   func(lane int, m Mem, v Register)
	store    func(v Register, m Mem)
}

var avx2 = isa{
	name:     "AVX2",
	width:    32,
	regs:     []Register{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15},
	load:     func(m Mem, x Register) { VMOVDQU(m, x) },
	loadFull: func(m Mem, v Register) { VMOVDQU(m, v) },
	insert:   func(lane int, m Mem, v Register) { VINSERTI128(U8(lane), m, v, v) },
	store:    func(v Register, m Mem) { VMOVDQU(v, m) },
}

var avx512 = isa{
	name:  "AVX512",
	width: 64,
	regs: []Register{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31},
	load:     func(m Mem, x Register) { VMOVDQU64(m, x) },
	loadFull: func(m Mem, v Register) { VMOVDQU64(m, v) },
	insert:   func(lane int, m Mem, v Register) { VINSERTI32X4(U8(lane), m, v, v) },
	store:    func(v Register, m Mem) { VMOVDQU64(v, m) },
}

// prefetchLines is how far ahead, in columns, a kernel prefetches.
const prefetchLines = 32

// panelLines is the number of cache lines of each source column a panel reads: two, as the
// hardware's adjacent-line prefetcher fetches them. It is kernelLines in package tensor.
const panelLines = 1

func main() {
	ConstraintExpr("amd64,!purego")
	for _, set := range []isa{avx2, avx512} {
		for _, es := range []int{1, 2, 4, 8} {
			kernel(set, es)
		}
	}
	Generate()
}

func kernel(set isa, es int) {
	name := fmt.Sprintf("transpose%d%s", es, set.name)
	rows := 64 * panelLines / es
	TEXT(name, NOSPLIT, "func(dst, src *byte, cols, sc, dr int64, nt bool)")
	Doc(
		fmt.Sprintf("%s moves a panel of %d rows × cols columns (a multiple of %d) of %d-byte elements:", name, rows, 64/es, es),
		fmt.Sprintf("element (r, c) from src + r·%d + c·sc to dst + r·dr + c·%d, in %s.", es, es, set.name),
		fmt.Sprintf("With nt it stores with VMOVNTDQ: dst and dr must then be multiples of %d.", set.width),
	)
	lay := newLayout(set, es)
	var slot, stage Mem
	if len(set.regs) < lay.values+1 {
		slot = AllocLocal(set.width)
	}
	if set.width < 64 {
		stage = AllocLocal(set.width * lay.rows)
	}
	d := Load(Param("dst"), GP64())
	s := Load(Param("src"), GP64())
	sc := Load(Param("sc"), GP64())
	dr := Load(Param("dr"), GP64())
	nt := Load(Param("nt"), GP8())
	TESTB(nt, nt)
	JNZ(LabelRef(name + "_nt"))
	panel(set, lay, slot, stage, name, false, d, s, sc, dr)
	JMP(LabelRef(name + "_done"))
	Label(name + "_nt")
	panel(set, lay, slot, stage, name+"_nt", true, d, s, sc, dr)
	SFENCE()
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// layout says how a kernel loads a group of T = V/es columns into registers.
//
// With full vectors (when twice T registers fit: 4- and 8-byte elements), register
// k is the V bytes of column k, its 128-bit lane i rows i·n..i·n+n-1 (n = 16/es): the network
// transposes within the lanes, then moves whole lanes between the registers of the column groups
// (VSHUFI64X2 or VPERM2I128), and a sub-tile is V/es rows. Otherwise register k holds, in its lane
// i, the n rows of column i·n + k (a 16-byte load each, VINSERTI128 or VINSERTI32X4), a sub-tile
// is n rows, and the network only works within the lanes.
type layout struct {
	es, n, lanes int
	full         bool
	values       int // registers a group is loaded into
	rows         int // rows of a sub-tile
	cols         int // columns of a group
}

func newLayout(set isa, es int) layout {
	l := layout{es: es, n: 16 / es, lanes: set.width / 16, cols: set.width / es}
	l.full = 2*l.cols <= len(set.regs)
	if l.full {
		l.values, l.rows = l.cols, l.cols
	} else {
		l.values, l.rows = l.n, l.n
	}
	return l
}

// panel emits the loop over the super-tiles of one panel.
//
// With vectors narrower than a line (AVX2), a sub-tile's first group is staged on the stack, so that
// the second writes each destination line whole, its two halves one after the other: stores around
// the cache combine only the lines written whole while they are open.
func panel(set isa, lay layout, slot, stage Mem, prefix string, nt bool, d, s, sc, dr Register) {
	es := lay.es
	c := 64 / es // columns of a super-tile
	p := lay.rows
	cs, cd, p0, q := GP64(), GP64(), GP64(), GP64()
	ccount, pf, pfn := GP64(), GP64(), GP64()
	MOVQ(s, cs)
	MOVQ(d, cd)
	Load(Param("cols"), ccount)

	Comment("The prefetch cursor runs prefetchLines columns ahead, then into the next panel.")
	ahead := (prefetchLines + c - 1) / c * c
	MOVQ(U32(ahead), pf)
	IMULQ(sc, pf)
	ADDQ(s, pf)
	Load(Param("cols"), pfn)
	SUBQ(U32(ahead), pfn)
	JG(LabelRef(prefix + "_tile"))
	LEAQ(Mem{Base: s, Disp: 64 * panelLines}, pf)
	MOVQ(U32(1<<30), pfn) // the next panel's first columns: no further wrap

	Label(prefix + "_tile")
	for range c {
		for line := range panelLines {
			PREFETCHT0(Mem{Base: pf, Disp: 64 * line})
		}
		ADDQ(sc, pf)
	}
	SUBQ(U32(c), pfn)
	JNZ(LabelRef(prefix + "_work"))
	LEAQ(Mem{Base: s, Disp: 64 * panelLines}, pf)
	MOVQ(U32(1<<30), pfn)

	Label(prefix + "_work")
	MOVQ(cd, q)
	for sub := range 64 * panelLines / (p * es) {
		MOVQ(cs, p0)
		for g := range 64 / set.width {
			Commentf("Sub-tile %d, group %d.", sub, g)
			a := newAlloc(set, slot)
			in := make([]*value, lay.values)
			for col := range lay.cols {
				m := Mem{Base: p0, Disp: p * es * sub}
				if lay.full {
					in[col] = a.load(m, lay.column(col))
				} else {
					lane, k := col/lay.n, col%lay.n
					if lane == 0 {
						in[k] = a.loadLane(m, lay.lane(k))
					} else {
						a.insert(in[k], lane, m)
					}
				}
				ADDQ(sc, p0)
			}
			out := a.transpose(lay, in)
			store := func(v Register, m Mem) {
				if nt {
					VMOVNTDQ(v, m)
				} else {
					set.store(v, m)
				}
			}
			for row := range p {
				v := set.regs[out[row].reg]
				switch {
				case set.width == 64:
					store(v, Mem{Base: q})
					ADDQ(dr, q)
				case g == 0:
					set.store(v, stage.Offset(row*set.width))
				default:
					store(v, Mem{Base: q, Disp: set.width})
					set.loadFull(stage.Offset(row*set.width), v)
					store(v, Mem{Base: q})
					ADDQ(dr, q)
				}
			}
		}
	}
	MOVQ(p0, cs)
	ADDQ(U32(64), cd)
	SUBQ(U32(c), ccount)
	JNZ(LabelRef(prefix + "_tile"))
}

// xmm returns the 128-bit view of a vector register.
func xmm(r Register) Register { return r.(VecPhysical).AsX() }

// cell is one element of a register in the simulation of the network: its source column and its
// row within the sub-tile.
type cell struct{ col, row int }

// value is a register's content in the simulation: its lanes of cells, and the register index
// holding it (-1: spilled to the slot).
type value struct {
	lanes [][]cell
	reg   int
}

// column is the content of a full-vector load of column col.
func (l layout) column(col int) [][]cell {
	lanes := make([][]cell, l.lanes)
	for i := range lanes {
		for r := range l.n {
			lanes[i] = append(lanes[i], cell{col: col, row: i*l.n + r})
		}
	}
	return lanes
}

// lane is the content of 16-byte lane i of the register k of a group in the layout with lanes: the
// n rows of column i·n + k.
func (l layout) lane(k int) func(i int) []cell {
	return func(i int) []cell {
		var cells []cell
		for r := range l.n {
			cells = append(cells, cell{col: i*l.n + k, row: r})
		}
		return cells
	}
}

// alloc hands out the vector registers of a group's network, spilling one value to slot when
// they run out.
type alloc struct {
	set  isa
	used []bool
	slot Mem
}

func newAlloc(set isa, slot Mem) *alloc {
	return &alloc{set: set, used: make([]bool, len(set.regs)), slot: slot}
}

func (a *alloc) take() int {
	for i, u := range a.used {
		if !u {
			a.used[i] = true
			return i
		}
	}
	return -1
}

func (a *alloc) load(m Mem, lanes [][]cell) *value {
	v := &value{lanes: lanes, reg: a.take()}
	a.set.loadFull(m, a.set.regs[v.reg])
	return v
}

// loadLane loads lane 0 of a new value (zeroing the others), whose lane i is to hold lane(i).
func (a *alloc) loadLane(m Mem, lane func(i int) []cell) *value {
	v := &value{reg: a.take()}
	for i := range a.set.width / 16 {
		v.lanes = append(v.lanes, lane(i))
	}
	a.set.load(m, xmm(a.set.regs[v.reg]))
	return v
}

func (a *alloc) insert(v *value, lane int, m Mem) {
	a.set.insert(lane, m, a.set.regs[v.reg])
}

// free returns a register index, spilling victim to the slot when none is free.
func (a *alloc) free(victim *value) int {
	if r := a.take(); r >= 0 {
		return r
	}
	a.set.store(a.set.regs[victim.reg], a.slot)
	a.used[victim.reg] = false
	victim.reg = -1
	return a.take()
}

// transpose emits the network for a group loaded as in and returns, for each row of the sub-tile,
// the value holding it.
func (a *alloc) transpose(lay layout, vals []*value) []*value {
	// Within the lanes: pair a value whose first chunk is columns c..c+g-1 (c a multiple of 2g)
	// with the one whose first chunk is columns c+g..c+2g-1 of the same row.
	for g := 1; g < lay.n; g *= 2 {
		type pair struct{ a, b *value }
		var pairs []pair
		for _, x := range vals {
			first := x.lanes[0][0]
			if first.col%(2*g) != 0 {
				continue
			}
			for _, y := range vals {
				if y.lanes[0][0] == (cell{first.col + g, first.row}) {
					pairs = append(pairs, pair{x, y})
				}
			}
		}
		if len(pairs) != len(vals)/2 {
			panic(fmt.Sprintf("network for %d-byte elements: %d pairs of %d values at granularity %d", lay.es, len(pairs), len(vals), g))
		}
		lo, hi := unpack(lay.es * g)
		var next []*value
		for _, pr := range pairs {
			// Spill, if need be, the second value of the last pair, which is used last.
			r := a.free(pairs[len(pairs)-1].b)
			l := &value{reg: r}
			h := &value{}
			for i := range pr.a.lanes {
				l.lanes = append(l.lanes, interleave(pr.a.lanes[i][:lay.n/2], pr.b.lanes[i][:lay.n/2], g))
				h.lanes = append(h.lanes, interleave(pr.a.lanes[i][lay.n/2:], pr.b.lanes[i][lay.n/2:], g))
			}
			x := a.set.regs[pr.a.reg]
			if pr.b.reg >= 0 {
				y := a.set.regs[pr.b.reg]
				lo(y, x, a.set.regs[r])
				hi(y, x, y)
				h.reg = pr.b.reg
				a.used[pr.a.reg] = false
			} else {
				lo(a.slot, x, a.set.regs[r])
				hi(a.slot, x, x)
				h.reg = pr.a.reg
			}
			next = append(next, l, h)
		}
		vals = next
	}
	if lay.full && lay.lanes > 1 {
		vals = a.moveLanes(lay, vals)
	}
	out := make([]*value, lay.rows)
	for _, v := range vals {
		var cells []cell
		for _, l := range v.lanes {
			cells = append(cells, l...)
		}
		for i, c := range cells {
			if c.col != i || c.row != cells[0].row {
				panic(fmt.Sprintf("network for %d-byte elements does not transpose: %v", lay.es, cells))
			}
		}
		out[cells[0].row] = v
	}
	return out
}

// moveLanes finishes a full-vector network: the values holding rows j (lane 0) of the column
// groups 0, 1, ... exchange whole lanes, so that each ends with one row of all the columns.
func (a *alloc) moveLanes(lay layout, vals []*value) []*value {
	byRow := map[int][]*value{}
	var rows []int
	for _, v := range vals {
		r := v.lanes[0][0].row
		if byRow[r] == nil {
			rows = append(rows, r)
		}
		byRow[r] = append(byRow[r], v)
	}
	var out []*value
	for _, r := range rows {
		grp := byRow[r]
		slices.SortFunc(grp, func(x, y *value) int { return x.lanes[0][0].col - y.lanes[0][0].col })
		if lay.lanes == 2 {
			out = append(out, a.shuffle(grp[0], grp[1], 0x20), a.shuffle(grp[0], grp[1], 0x31))
			a.release(grp...)
			continue
		}
		t0, t1 := a.shuffle(grp[0], grp[1], 0x44), a.shuffle(grp[0], grp[1], 0xEE)
		t2, t3 := a.shuffle(grp[2], grp[3], 0x44), a.shuffle(grp[2], grp[3], 0xEE)
		a.release(grp...)
		out = append(out, a.shuffle(t0, t2, 0x88), a.shuffle(t0, t2, 0xDD), a.shuffle(t1, t3, 0x88), a.shuffle(t1, t3, 0xDD))
		a.release(t0, t1, t2, t3)
	}
	return out
}

// shuffle emits the lane move imm of x and y into a new value: VPERM2I128 for 2 lanes (lane 0
// from imm's low nibble, lane 1 from its high one, over x's lanes then y's), VSHUFI64X2 for 4
// (lanes 0 and 1 from x, 2 and 3 from y, two bits of imm each).
func (a *alloc) shuffle(x, y *value, imm uint8) *value {
	v := &value{reg: a.take()}
	if v.reg < 0 {
		panic("no register for a lane move")
	}
	if len(x.lanes) == 2 {
		both := append(append([][]cell{}, x.lanes...), y.lanes...)
		v.lanes = [][]cell{both[imm&3], both[imm>>4&3]}
		VPERM2I128(U8(imm), a.set.regs[y.reg], a.set.regs[x.reg], a.set.regs[v.reg])
		return v
	}
	v.lanes = [][]cell{x.lanes[imm&3], x.lanes[imm>>2&3], y.lanes[imm>>4&3], y.lanes[imm>>6&3]}
	VSHUFI64X2(U8(imm), a.set.regs[y.reg], a.set.regs[x.reg], a.set.regs[v.reg])
	return v
}

func (a *alloc) release(vs ...*value) {
	for _, v := range vs {
		a.used[v.reg] = false
	}
}

// interleave is the unpack of chunks of g elements: a's first chunk, b's first chunk, a's second...
func interleave(a, b []cell, g int) []cell {
	var out []cell
	for i := 0; i < len(a); i += g {
		out = append(out, a[i:i+g]...)
		out = append(out, b[i:i+g]...)
	}
	return out
}

// unpack returns the low and high interleave instructions for chunks of size bytes.
func unpack(size int) (lo, hi func(...Op)) {
	switch bits.TrailingZeros(uint(size)) {
	case 0:
		return VPUNPCKLBW, VPUNPCKHBW
	case 1:
		return VPUNPCKLWD, VPUNPCKHWD
	case 2:
		return VPUNPCKLDQ, VPUNPCKHDQ
	}
	return VPUNPCKLQDQ, VPUNPCKHQDQ
}

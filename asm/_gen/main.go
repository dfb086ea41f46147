// Command _gen generates the amd64 assembly kernels of package asm with avo
// (github.com/mmcloughlin/avo). It lives in its own module so that avo never
// becomes a dependency of ptbatch. Each run writes one kernel family:
//
//	go run . -family xoshiro -out ../xoshiro_amd64.s -stubs ../xoshiro_amd64.go -pkg asm
//
// (see asm/gen.go for the go:generate lines). Every kernel performs, lane
// by lane, exactly the floating-point operations of its Go twin in asm, in
// the same order, so that the two agree bit for bit: the polynomial
// coefficients and constants below are those of asm/elem.go.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

var family = flag.String("family", "", "kernel family to generate: xoshiro, gauss, swap, mix, book, ising, cubic or path")

func main() {
	flag.Parse()
	ConstraintExpr("!purego")
	switch *family {
	case "xoshiro":
		genXoshiro()
	case "gauss":
		genGauss()
	case "swap":
		genSwap()
	case "mix":
		genMix()
	case "book":
		genBook()
	case "ising":
		genIsing()
	case "cubic":
		genCubic()
		genFit()
	case "path":
		genPath()
		genSpline()
	default:
		fmt.Fprintln(os.Stderr, "_gen: unknown -family", *family)
		os.Exit(2)
	}
	emitConsts()
	Generate()
}

// Constants live in one read-only table per file, 128 bytes (16 copies) per
// value, addressed through a base register that each kernel rounds up to a
// multiple of 64 bytes on entry (alignConsts). Go's linker aligns data to at
// most 32 bytes, so a 64-byte ZMM operand read straight from the table can
// straddle two cache lines, which costs up to half the speed of the normal
// kernel depending on where the binary's linker put the table; from the
// rounded base every ZMM read is one aligned line, and since the base moves
// by 0 or 32 bytes and each value fills its 128-byte slot, a 64-byte read at
// base + 128 i sees only copies of value i. A YMM operand reads 32 bytes of
// the same slot.
var (
	constOff   = map[uint64]int{}
	constOrder []uint64
	constBase  reg.GPVirtual
)

// alignConsts loads the table's 64-byte-aligned base into a register; every
// kernel that uses constants calls it right after TEXT.
func alignConsts() {
	constBase = GP64()
	LEAQ(NewDataAddr(NewStaticSymbol("consts"), 0), constBase)
	ADDQ(U8(63), constBase)
	ANDQ(I8(-64), constBase)
}

func c64(bits uint64) Mem {
	off, ok := constOff[bits]
	if !ok {
		off = 128 * len(constOrder)
		constOff[bits] = off
		constOrder = append(constOrder, bits)
	}
	if constBase == nil {
		panic("_gen: constant used before alignConsts")
	}
	return Mem{Base: constBase, Disp: off}
}

func cf(x float64) Mem { return c64(math.Float64bits(x)) }

func emitConsts() {
	if len(constOrder) == 0 {
		return
	}
	GLOBL("consts", RODATA|NOPTR)
	for i, b := range constOrder {
		for k := 0; k < 16; k++ {
			DATA(128*i+8*k, U64(b))
		}
	}
}

// tier is an instruction set: AVX-512 (F and DQ) with 8 float64 lanes per
// ZMM register, or AVX2 with FMA and 4 lanes per YMM register (16 registers
// only: the AVX2 kernels keep at most 16 values live, and a test checks
// that their assembly names no register above Y15).
type tier struct {
	name  string // "AVX512" or "AVX2"
	width int    // float64 lanes per register
}

var (
	avx512 = tier{"AVX512", 8}
	avx2   = tier{"AVX2", 4}
)

func (t tier) zmm() bool { return t.width == 8 }

// bytes is the size of one register.
func (t tier) bytes() int { return 8 * t.width }

func (t tier) vec() reg.VecVirtual {
	if t.zmm() {
		return ZMM()
	}
	return YMM()
}

// V is a value held in len(V) registers, one per independent computation
// interleaved instruction by instruction (to give the out-of-order core
// independent work); most kernels use one.
type V []reg.Register

func (t tier) vecs(n int) V {
	v := make(V, n)
	for i := range v {
		v[i] = t.vec()
	}
	return v
}

// Asm makes V an operand; do replaces it by its registers.
func (v V) Asm() string { panic("_gen: V used as an operand outside do") }

// at returns operand i of a: V's i-th register, or a itself (a constant,
// an immediate or a register shared by all computations).
func at(a Op, i int) Op {
	if v, ok := a.(V); ok {
		return v[i]
	}
	return a
}

// width returns the number of computations among the operands.
func width(args []Op) int {
	n := 1
	for _, a := range args {
		if v, ok := a.(V); ok {
			n = len(v)
		}
	}
	return n
}

// do emits instruction fn once per computation, interleaved.
func (t tier) do(fn func(...Op), args ...Op) {
	for i := 0; i < width(args); i++ {
		ops := make([]Op, len(args))
		for j, a := range args {
			ops[j] = at(a, i)
		}
		fn(ops...)
	}
}

func (t tier) do3(fn func(a, b, c Op), x, y, z Op) {
	t.do(func(ops ...Op) { fn(ops[0], ops[1], ops[2]) }, x, y, z)
}

func (t tier) do4(fn func(a, b, c, d Op), w, x, y, z Op) {
	t.do(func(ops ...Op) { fn(ops[0], ops[1], ops[2], ops[3]) }, w, x, y, z)
}

func (t tier) load(n int, m Op) V {
	v := t.vecs(n)
	t.do(VMOVUPD, m, v)
	return v
}

func (t tier) xor(a, b, dst Op) {
	if t.zmm() {
		t.do(VPXORQ, a, b, dst)
	} else {
		t.do3(VPXOR, a, b, dst)
	}
}

func (t tier) and(a, b, dst Op) {
	if t.zmm() {
		t.do(VPANDQ, a, b, dst)
	} else {
		t.do3(VPAND, a, b, dst)
	}
}

func (t tier) or(a, b, dst Op) {
	if t.zmm() {
		t.do(VPORQ, a, b, dst)
	} else {
		t.do3(VPOR, a, b, dst)
	}
}

func (t tier) zero(v Op) { t.xor(v, v, v) }

// rotl rotates the 64-bit lanes of v left by k in place.
func (t tier) rotl(v V, k int) {
	if t.zmm() {
		t.do(VPROLQ, U8(k), v, v)
		return
	}
	tmp := t.vecs(len(v))
	t.do(VPSLLQ, U8(k), v, tmp)
	t.do(VPSRLQ, U8(64-k), v, v)
	t.do3(VPOR, tmp, v, v)
}

// horner returns Horner(c, x): p = c[n]; p = FMA(p, x, c[i]) for i = n-1..0.
func (t tier) horner(c []float64, x V) V {
	p := t.load(len(x), cf(c[len(c)-1]))
	for i := len(c) - 2; i >= 0; i-- {
		t.do(VFMADD213PD, cf(c[i]), x, p) // p = x*p + c[i]
	}
	return p
}

// estrin returns Estrin(c, x) as asm/elem.go's logPoly and expPoly
// evaluate it: the node at level L, index i is FMA(node(L-1, 2i+1),
// x^(2^(L-1)), node(L-1, 2i)), or node(L-1, 2i) when there is no right
// child; level 0 holds the coefficients. Evaluated depth first to keep few
// registers live. pows[0] is x; the higher powers x², x⁴, ... are computed
// here, or taken from pows when the caller has them.
func (t tier) estrin(c []float64, pows []V) V {
	n := len(pows[0])
	levels := 0
	for m := len(c); m > 1; m = (m + 1) / 2 {
		levels++
	}
	for len(pows) < levels {
		last := pows[len(pows)-1]
		p := t.vecs(n)
		t.do(VMULPD, last, last, p)
		pows = append(pows, p)
	}
	size := func(level int) int { // nodes at a level
		m := len(c)
		for l := 0; l < level; l++ {
			m = (m + 1) / 2
		}
		return m
	}
	var node func(level, i int) V
	node = func(level, i int) V {
		if level == 1 {
			q := t.load(n, cf(c[2*i]))
			if 2*i+1 < len(c) {
				t.do(VFMADD231PD, cf(c[2*i+1]), pows[0], q) // q = x*c[2i+1] + c[2i]
			}
			return q
		}
		lo := node(level-1, 2*i)
		if 2*i+1 < size(level-1) {
			hi := node(level-1, 2*i+1)
			t.do(VFMADD231PD, hi, pows[level-1], lo) // lo = x^(2^(L-1))*hi + lo
		}
		return lo
	}
	return node(levels, 0)
}

// loopN emits `for ; n != 0; n-- { body() }` with a unique label prefix.
func loopN(name string, n reg.Register, body func()) {
	CMPQ(n, Imm(0))
	JE(LabelRef(name + "_done"))
	Label(name)
	body()
	DECQ(n)
	JNZ(LabelRef(name))
	Label(name + "_done")
}

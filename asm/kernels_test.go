package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tierNames are every implementation some CPU may offer; the tests run
// each one this CPU and build have and skip the others, saying so.
var tierNames = []string{"avx512", "avx2", "generic"}

func forEachImpl(t *testing.T, f func(t *testing.T, im Impl)) {
	for _, name := range tierNames {
		t.Run("impl="+name, func(t *testing.T) {
			for _, im := range Impls() {
				if im.Name == name {
					f(t, im)
					return
				}
			}
			t.Skipf("implementation %s is not available on this CPU or build (purego)", name)
		})
	}
}

func randState(rng *rand.Rand) *[4 * lanes]uint64 {
	var s [4 * lanes]uint64
	for i := range s {
		s[i] = rng.Uint64()
	}
	return &s
}

// guarded returns a slice of n values followed, in the same array, by a
// guard of sentinels that the kernels must not touch.
func guarded(n int) ([]float64, []float64) {
	buf := make([]float64, n+2*lanes)
	for i := range buf {
		buf[i] = math.Float64frombits(0x7ff8dead0000beef)
	}
	return buf[:n], buf[n:]
}

func checkGuard(t *testing.T, g []float64) {
	t.Helper()
	for _, v := range g {
		if math.Float64bits(v) != 0x7ff8dead0000beef {
			t.Fatal("kernel wrote past the end of its slice")
		}
	}
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), generic %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

func TestXoshiroKernelsMatchGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(7, 8))
		for rows := 0; rows <= 70; rows++ {
			for _, normal := range []bool{false, true} {
				n := rows * lanes
				f, g := im.XoshiroUniform, XoshiroUniformGeneric
				if normal {
					if rows%2 == 1 {
						continue
					}
					f, g = im.XoshiroNormal, XoshiroNormalGeneric
				}
				s := randState(rng)
				s2 := *s
				got, guard := guarded(n)
				want := make([]float64, n)
				f(got, s)
				g(want, &s2)
				checkGuard(t, guard)
				sameBits(t, fmt.Sprintf("normal=%v rows=%d: dst", normal, rows), got, want)
				if *s != s2 {
					t.Fatalf("normal=%v rows=%d: state differs from generic", normal, rows)
				}
			}
		}
	})
}

// TestXoshiroNormalIsUniformThenBoxMuller checks the fused generic fill
// against the two-pass definition it replaces.
func TestXoshiroNormalIsUniformThenBoxMuller(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	s := randState(rng)
	s2 := *s
	got := make([]float64, 64*lanes)
	XoshiroNormalGeneric(got, s)
	u := make([]float64, len(got))
	want := make([]float64, len(got))
	XoshiroUniformGeneric(u, &s2)
	BoxMullerGeneric(want, u)
	sameBits(t, "normal", got, want)
}

func TestGaussEnergyMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(11, 12))
		for rows := 0; rows <= 9; rows++ {
			for _, dim := range []int{1, 2, 3, 5, 8, 17, 64} {
				n := rows * lanes
				m, s := make([]float64, n), make([]float64, n)
				for i := range m {
					m[i], s[i] = rng.NormFloat64(), rng.ExpFloat64()
				}
				if n > 3 {
					m[3], s[n-1] = math.NaN(), math.Inf(1)
				}
				z := make([]float64, n*dim)
				for i := range z {
					z[i] = rng.NormFloat64()
				}
				mu0, mu1, h0, h1 := rng.NormFloat64(), rng.NormFloat64(), rng.ExpFloat64(), rng.ExpFloat64()
				w0, g0 := guarded(n)
				w1, g1 := guarded(n)
				first, g2 := guarded(n)
				rw0, rw1, rfirst := make([]float64, n), make([]float64, n), make([]float64, n)
				im.GaussEnergy(w0, w1, first, m, s, z, dim, mu0, mu1, h0, h1)
				GaussEnergyGeneric(rw0, rw1, rfirst, m, s, z, dim, mu0, mu1, h0, h1)
				checkGuard(t, g0)
				checkGuard(t, g1)
				checkGuard(t, g2)
				what := fmt.Sprintf("rows=%d dim=%d: ", rows, dim)
				sameBits(t, what+"w0", w0, rw0)
				sameBits(t, what+"w1", w1, rw1)
				sameBits(t, what+"first", first, rfirst)
			}
		}
	})
}

func TestSwapAlphaMatchesGeneric(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), ExpMin, math.Nextafter(ExpMin, math.Inf(-1)), -1e300, 1e300}
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(13, 14))
		for pairs := 0; pairs <= 40; pairs++ {
			n := pairs * lanes
			eta0, eta1, w0, w1 := make([]float64, n+lanes), make([]float64, n+lanes), make([]float64, n+lanes), make([]float64, n+lanes)
			scale := math.Ldexp(1, rng.IntN(24)-4)
			for i := range eta0 {
				eta0[i], eta1[i] = rng.Float64(), rng.Float64()
				w0[i], w1[i] = -scale*rng.ExpFloat64(), -scale*rng.ExpFloat64()
				if rng.IntN(10) == 0 {
					w0[i] = special[rng.IntN(len(special))]
				}
			}
			alpha, ga := guarded(n)
			rej, gr := guarded(n)
			ralpha, rrej := make([]float64, n), make([]float64, n)
			for i := range rej {
				rej[i] = float64(i)
				rrej[i] = float64(i)
			}
			im.SwapAlpha(alpha, rej, eta0, eta1, w0, w1)
			SwapAlphaGeneric(ralpha, rrej, eta0, eta1, w0, w1)
			checkGuard(t, ga)
			checkGuard(t, gr)
			sameBits(t, fmt.Sprintf("pairs=%d: alpha", pairs), alpha, ralpha)
			sameBits(t, fmt.Sprintf("pairs=%d: rej", pairs), rej, rrej)
		}
	})
}

// TestSwapAlphaEdgeCases checks the acceptance rule on log ratios with a
// known answer: lr >= 0 accepts surely, NaN never, lr < ExpMin never, and
// lr = -1 gives e^-1 to within the 1-ulp bound of ExpNonPos.
func TestSwapAlphaEdgeCases(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		// Pair 0 of lane j: eta0 = (1, 0), eta1 = (0, 0), w0 = (0, w) gives lr = w.
		lrs := []float64{2, 0, math.NaN(), ExpMin - 1, -1, math.Inf(-1), math.Inf(1), -0.5}
		want := []float64{1, 1, 0, 0, math.Exp(-1), 0, 1, math.Exp(-0.5)}
		eta0, eta1, w0, w1 := make([]float64, 2*lanes), make([]float64, 2*lanes), make([]float64, 2*lanes), make([]float64, 2*lanes)
		for j := 0; j < lanes; j++ {
			eta0[j] = 1
			w0[lanes+j] = lrs[j]
		}
		alpha, rej := make([]float64, lanes), make([]float64, lanes)
		im.SwapAlpha(alpha, rej, eta0, eta1, w0, w1)
		for j := range want {
			if math.Abs(alpha[j]-want[j]) > ulpOf(want[j]) || rej[j] != 1-alpha[j] {
				t.Errorf("lr = %v: alpha %v rej %v, want alpha %v", lrs[j], alpha[j], rej[j], want[j])
			}
		}
	})
}

// TestAVX2KernelsUseOnlyAVX2 checks that the AVX2 kernels, which must run
// on CPUs without AVX-512, name no vector register above 15 (those need
// the EVEX encoding; avo's allocator does not know the difference), no
// ZMM or opmask register and no AVX-512-only instruction.
func TestAVX2KernelsUseOnlyAVX2(t *testing.T) {
	files, _ := filepath.Glob("*_amd64.s")
	if len(files) == 0 {
		t.Fatal("no assembly files")
	}
	high := regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b|\bZ[0-9]+\b|\bK[0-7]\b|` +
		`\b(VPROL|VPROR|VPXORQ|VPANDQ|VPORQ|VCVTUQQ2PD|VCVTQQ2PD|VPTESTM|VBLENDM|VPERMT2|VPERMI2|VPSRAQ)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fn := ""
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "TEXT ") {
				fn = line
			}
			if strings.Contains(fn, "AVX2(") && high.MatchString(line) {
				t.Errorf("%s:%d: AVX2 kernel uses an AVX-512 register: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestGeneratedAssemblyIsCurrent regenerates the kernels with the avo
// program in _gen and compares them with the committed files, the header
// line (which names the output paths) aside. It needs the avo module, so
// it runs only with PTBATCH_CHECK_GENERATE=1.
func TestGeneratedAssemblyIsCurrent(t *testing.T) {
	if os.Getenv("PTBATCH_CHECK_GENERATE") != "1" {
		t.Skip("set PTBATCH_CHECK_GENERATE=1 to regenerate the assembly with avo and compare")
	}
	dir := t.TempDir()
	for _, fam := range []string{"xoshiro", "gauss", "swap", "mix", "book", "ising"} {
		cmd := exec.Command("go", "run", ".", "-family", fam, "-out", filepath.Join(dir, fam+".s"), "-stubs", filepath.Join(dir, fam+".go"), "-pkg", "asm")
		cmd.Dir = "_gen"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", fam, err, out)
		}
		for _, ext := range []string{".s", ".go"} {
			got, _ := os.ReadFile(filepath.Join(dir, fam+ext))
			want, err := os.ReadFile(fam + "_amd64" + ext)
			if err != nil {
				t.Fatal(err)
			}
			_, g, _ := strings.Cut(string(got), "\n")
			_, w, _ := strings.Cut(string(want), "\n")
			if g != w {
				t.Errorf("%s_amd64%s differs from what _gen generates; run go generate ./asm", fam, ext)
			}
		}
	}
}

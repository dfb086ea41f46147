# Coefficients of the polynomials in asm/elem.go (and _gen/elem.go):
# Chebyshev interpolants at 60 digits (mpmath.chebyfit), printed lowest
# degree first as float64 hex literals. Run: python3 coeffs.py (needs mpmath).
import mpmath as mp
mp.mp.dps = 60
sq = mp.sqrt(2)
def P(f):
    return (mp.log1p(f) - f)/f**2
def S(z):
    y = mp.sqrt(z); return (mp.sin(mp.pi/2*y)/y - mp.pi/2)/z
def C(z):
    y = mp.sqrt(z); return (mp.cos(mp.pi/2*y) - 1)/z
def E(r):
    if r == 0: return mp.mpf(0.5)
    return (mp.exp(r) - 1 - r)/r**2
for name, f, a, b, deg in [("logP", P, 1/sq-1, sq-1, 20), ("sinS", S, 0, mp.mpf(0.25), 5), ("cosC", C, 0, mp.mpf(0.25), 6), ("expE", E, -mp.log(2)/2, mp.log(2)/2, 10)]:
    poly, err = mp.chebyfit(f, [a, b], deg+1, error=True)
    c = [float(x).hex() for x in reversed(poly)]  # lowest degree first
    print("// %s: degree %d, fit error %s" % (name, deg, mp.nstr(err, 3)))
    print("var %s = [...]float64{%s}" % (name, ", ".join(c)))
hi = float(mp.pi/2); print("halfPi", hi.hex(), float(mp.pi/2 - mp.mpf(hi)).hex())
l2 = float(mp.log(2)); print("ln2", l2.hex(), float(mp.log(2) - mp.mpf(l2)).hex())
print("log2e", float(1/mp.log(2)).hex())
print("expMin", float(mp.log(mp.mpf(2)**-1022)).hex(), mp.log(mp.mpf(2)**-1022))

// A small seeded pseudo-random generator (sfc32 on 32-bit integers, seeded through splitmix32) for the
// randomised solvers: the same seed always gives the same sequence. Not for anything cryptographic.

export interface Random {
  /** A uniform 32-bit unsigned integer. */
  uint32(): number;
  /** A uniform float in [0, 1). */
  float(): number;
  /** A uniform integer in [0, bound), for 1 <= bound <= 2^32. */
  int(bound: number): number;
}

/** splitmix32 step: spreads a seed so that nearby seeds give unrelated sfc32 states. */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A generator determined by `seed` (any finite number; its integer part modulo 2^32 and its high bits are used). */
export function createRandom(seed: number): Random {
  const lo = Number.isFinite(seed) ? Math.trunc(seed) >>> 0 : 0;
  const hi = Number.isFinite(seed) ? Math.floor(Math.trunc(seed) / 4294967296) >>> 0 : 0;
  let a = splitmix32(lo);
  let b = splitmix32(a ^ hi);
  let c = splitmix32(b + 0x632be5ab);
  let d = 1; // sfc32's counter
  const uint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) uint32(); // warm up past the seeding
  return {
    uint32,
    float: () => uint32() / 4294967296,
    int: (bound) => Math.floor((uint32() / 4294967296) * bound),
  };
}

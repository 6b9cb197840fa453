/** A seeded pseudo-random source in [0, 1) (mulberry32): the same sequence on every run with the same seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fixed pseudo-random order, so folds are the same on every run with the same seed. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rand = random(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Each instance's fold (0…k−1): instances are shuffled with `seed` and dealt into k folds, or,
 * with `byRepo`, whole repositories are dealt (largest first, each into the lightest fold).
 */
export function assignFolds(
  data: readonly { id: string; repo: string }[],
  { k, seed, byRepo }: { k: number; seed: number; byRepo: boolean },
): Map<string, number> {
  const foldOf = new Map<string, number>();
  if (byRepo) {
    const repos = [...new Set(data.map((d) => d.repo))];
    const size = new Map<string, number>();
    for (const d of data) size.set(d.repo, (size.get(d.repo) ?? 0) + 1);
    const load = new Array<number>(k).fill(0);
    // Largest repositories first, each into the lightest fold.
    for (const r of shuffled(repos, seed).sort((a, b) => (size.get(b) ?? 0) - (size.get(a) ?? 0))) {
      const f = load.indexOf(Math.min(...load));
      load[f] = (load[f] ?? 0) + (size.get(r) ?? 0);
      for (const d of data) if (d.repo === r) foldOf.set(d.id, f);
    }
  } else shuffled(data, seed).forEach((d, i) => foldOf.set(d.id, i % k));
  return foldOf;
}

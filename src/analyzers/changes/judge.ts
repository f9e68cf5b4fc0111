// Which candidate regions of a comparison are damage: gradient-boosted decision trees over a few numbers
// that describe each candidate (./candidates.ts), fitted on the change bench's tuning part
// (bench/train-changes.ts) and kept as data in ./judge-model.json. Each rule that used to drop a region
// looked at one number at a time (off the vehicle, found nearby, too weak, too small), and loosening any
// one of them let in as many false regions as damages; the trees weigh them together
// (docs/adr/0016-change-detection-with-opencv.md, stop 47). Fitting has no randomness, and a tree is a
// fixed walk: the same candidates give the same likelihoods on any machine.

/** A node: split on `feature` at `at` (left when the value is at most `at`), or a leaf's `value`. */
export type TreeNode = { feature: number; at: number; left: TreeNode; right: TreeNode } | { value: number };

export interface Trees {
  /** The log-odds every candidate starts from. */
  base: number;
  rate: number;
  trees: TreeNode[];
}

export interface FitOptions {
  rounds: number;
  depth: number;
  rate: number;
  /** A split leaves this many candidates on either side at least. */
  minLeaf: number;
  /** Added to a leaf's weight (the sum of p(1 - p) over its candidates): damps leaves of few. */
  lambda: number;
  /** Each number is cut into this many bins of as many candidates, at its quantiles. */
  bins: number;
}

/**
 * Tuning part of the 300 pairs, cross-validated by pair in five ways of cutting it into folds (found of
 * 316, the mean of the five; false regions per pair with damage, without change, at 0.5). Leaves the
 * mean residual of their candidates, splits at the 5th to 95th percentiles (stop 47): 500 trees of
 * depth 4, 279.6, 0.17, 0.19 (284 in the folds train:changes prints). Leaves a Newton step (the residual
 * over the weight, lambda 1), as XGBoost and LightGBM make them, stop 49: 20 bins, 283.8, 0.17, 0.21;
 * 64 bins, 284.0, 0.13, 0.20 (kept); 32 bins, 281.6; lambda 0.1 or 3, 283.0 or 283.8; 300 trees, depth 5
 * or leaves of 20, 283.8, 284.0, 284.2. The mean residual is a gradient step that stays small where
 * the likelihood is already near 0 or 1, so the rare damage that looks like many false candidates kept
 * a low likelihood; a Newton step there is larger.
 */
export const FIT_OPTIONS: FitOptions = { rounds: 500, depth: 4, rate: 0.1, minLeaf: 10, lambda: 1, bins: 64 };

/** The likelihood (0..1) that a candidate described by `features` is damage. */
export function likelihood(model: Trees, features: readonly number[]): number {
  let sum = model.base;
  for (const tree of model.trees) sum += model.rate * leafOf(tree, features);
  return 1 / (1 + Math.exp(-sum));
}

function leafOf(node: TreeNode, features: readonly number[]): number {
  let at = node;
  while (!('value' in at)) at = features[at.feature]! <= at.at ? at.left : at.right;
  return at.value;
}

/** Each number's cuts and each candidate's bin by them (the first cut it is at most, or past the last). */
interface Binned {
  cuts: number[][];
  bins: Uint16Array[];
}

/** One round's gradient (the residual, label less likelihood) and weight (p(1 - p)) per candidate. */
interface Steps {
  gradient: Float64Array;
  weight: Float64Array;
}

/**
 * Trees fitted to `labels` (1: damage) by gradient boosting of the log-likelihood, each leaf a Newton
 * step (its gradient over its weight plus lambda). Splits are tried between bins cut at each number's
 * quantiles over the whole set; no randomness, so the same rows give the same trees.
 */
export function fitTrees(
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  options = FIT_OPTIONS,
): Trees {
  const mean = labels.reduce((s, y) => s + y, 0) / labels.length;
  const base = Math.log(mean / (1 - mean));
  const binned = binnedRows(rows, options.bins);
  const sums = new Float64Array(rows.length).fill(base);
  const steps: Steps = { gradient: new Float64Array(rows.length), weight: new Float64Array(rows.length) };
  const trees: TreeNode[] = [];
  const all = rows.map((_, i) => i);
  for (let round = 0; round < options.rounds; round++) {
    labels.forEach((y, i) => {
      const p = 1 / (1 + Math.exp(-sums[i]!));
      steps.gradient[i] = y - p;
      steps.weight[i] = p * (1 - p);
    });
    const tree = grow(binned, steps, all, options.depth, options);
    trees.push(tree);
    rows.forEach((row, i) => (sums[i]! += options.rate * leafOf(tree, row)));
  }
  return { base, rate: options.rate, trees };
}

/** The distinct values at each number's quantiles k / count (linear between neighbours), and the bins. */
function binnedRows(rows: readonly (readonly number[])[], count: number): Binned {
  const cuts = (rows[0] ?? []).map((_, j) => {
    const sorted = rows.map((row) => row[j]!).sort((p, q) => p - q);
    const values = new Set<number>();
    for (let k = 1; k < count; k++) {
      const at = (k / count) * (sorted.length - 1);
      const low = Math.floor(at);
      const high = Math.min(sorted.length - 1, low + 1);
      values.add(sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low));
    }
    return [...values].sort((p, q) => p - q);
  });
  const bins = cuts.map((values, j) =>
    Uint16Array.from(rows, (row) => {
      let k = 0;
      while (k < values.length && row[j]! > values[k]!) k++;
      return k;
    }),
  );
  return { cuts, bins };
}

function grow(binned: Binned, steps: Steps, members: number[], depth: number, options: FitOptions): TreeNode {
  const { gradient, weight } = steps;
  const { lambda, minLeaf } = options;
  let [total, mass] = [0, 0];
  for (const i of members) [total, mass] = [total + gradient[i]!, mass + weight[i]!];
  const leaf = { value: total / (mass + lambda) };
  if (depth === 0 || members.length < 2 * minLeaf) return leaf;
  const score = (g: number, h: number) => (g * g) / (h + lambda);
  let best: { gain: number; feature: number; bin: number } | undefined;
  binned.bins.forEach((bins, feature) => {
    // Each bin's sums over the members, then every cut between bins from the left.
    const size = binned.cuts[feature]!.length + 1;
    const [g, h, n] = [new Float64Array(size), new Float64Array(size), new Float64Array(size)];
    for (const i of members) {
      const k = bins[i]!;
      g[k]! += gradient[i]!;
      h[k]! += weight[i]!;
      n[k]!++;
    }
    let [left, leftMass, count] = [0, 0, 0];
    for (let k = 0; k < size - 1; k++) {
      [left, leftMass, count] = [left + g[k]!, leftMass + h[k]!, count + n[k]!];
      if (count < minLeaf || members.length - count < minLeaf) continue;
      const gain = score(left, leftMass) + score(total - left, mass - leftMass) - score(total, mass);
      if (gain > (best?.gain ?? 0)) best = { gain, feature, bin: k };
    }
  });
  if (!best) return leaf;
  const { feature, bin } = best;
  const bins = binned.bins[feature]!;
  const [lower, upper] = [members.filter((i) => bins[i]! <= bin), members.filter((i) => bins[i]! > bin)];
  return {
    feature,
    at: binned.cuts[feature]![bin]!,
    left: grow(binned, steps, lower, depth - 1, options),
    right: grow(binned, steps, upper, depth - 1, options),
  };
}

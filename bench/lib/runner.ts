// The runner: groups of cases measured with tinybench in interleaved rounds, best/median
// statistics, ratios against the baselines of the same group, JSON lines or console tables.
import { Bench } from 'tinybench';
import { type Budget, DEFAULT_BUDGET } from './sizes.js';

export type Tier = 'kernels' | 'threads' | 'ops' | 'e2e' | 'data' | 'gan' | 'fale' | 'models' | 'audit' | 'torch';
export type EngineName = 'lucid' | 'tfjs-wasm' | 'js' | 'pytorch';
/** '×': a time ratio lucid / baseline (derived rows; lower is better for lucid). */
export type Unit = 'GFLOP/s' | 'MB/s' | 'rows/s' | 'ms' | '×';

/** Throughputs are better high, latencies low. */
const higherIsBetter = (u: Unit) => u !== 'ms' && u !== '×';
/** round-median: derived rows only, the median over rounds of a per-round ratio. */
export type Stat = 'best' | 'median' | 'round-median';

/** One measured thing: a synchronous closure over fixtures built beforehand. */
export interface Case {
  engine: EngineName;
  /** Which implementation (e.g. "f32_gemm", "transpose+matMul", "loop ikj"). */
  impl: string;
  /**
   * The call to time. An async group's case may resolve to a number: its own measurement of the call
   * in ms (e.g. a child process's audit without the process's start-up), taken as the sample instead of
   * the call's wall time.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a case's call is any function, a kernel's `() => void` included
  fn: () => void | Promise<void | number>;
  /** Row name when it differs from the group's (e2e: iteration / critic step / generator step). */
  bench?: string;
  /** Extra JSON fields for this case's rows. */
  extra?: Record<string, unknown>;
  /**
   * A lucid case the group's other lucid cases are compared with, as with another engine's (e.g. the
   * code's earlier default, run in the same process): their rows get the ratio against it.
   */
  baseline?: boolean;
}

export interface Prepared {
  cases: Case[];
  /** Called after the probe calls (each case has run once): a warning text, or null when results agree. */
  check?: () => string | null;
  /** Frees the fixtures. */
  dispose?: () => void;
  /** Bytes processed by one call, when only the fixtures know it (unit MB/s). */
  bytes?: number;
  /** Rows processed by one call, when only the fixtures know it (unit rows/s). */
  rows?: number;
  /**
   * Async groups: extra rows computed from every case's samples (in case order; sample r of each
   * case is its call of round r), e.g. per-round ratios between engines. `variant` is overwritten.
   */
  derive?: (samples: number[][]) => Row[];
}

/** One Bench's worth of work: the cases of one shape / op, interleaved. */
export interface Group {
  tier: Tier;
  name: string;
  unit: Unit;
  /** Floating-point operations of one call (unit GFLOP/s). */
  flops?: number;
  /** Bytes processed by one call (unit MB/s). */
  bytes?: number;
  /** Rows processed by one call (unit rows/s). */
  rows?: number;
  budget?: Partial<Budget>;
  /** Builds the fixtures (only when the group is selected). */
  prepare(): Promise<Prepared> | Prepared;
  /**
   * Asynchronous cases (e.g. streaming file reads), which tinybench's synchronous rounds cannot
   * time: each case is called `rounds` times in rotation, and every call's wall time is a sample.
   */
  async?: boolean;
  /** async groups: call each case once before the timed rounds (default true; false for calls of minutes) */
  warmup?: boolean;
}

export interface Row {
  tier: Tier;
  bench: string;
  engine: EngineName;
  impl: string;
  stat: Stat;
  value: number;
  unit: Unit;
  baseline?: string;
  ratio?: number;
  threads: number;
  variant: string;
  samples: number;
  [extra: string]: unknown;
}

interface Measured {
  c: Case;
  samples: number[];
  probeMs: number;
  slow: boolean;
  cap: number;
}

export interface RunContext {
  variant: string;
  /** Overrides for every group (CLI --rounds / --time). */
  budget: Partial<Budget>;
  log: (msg: string) => void;
}

const median = (sorted: number[]) => {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
};

/** Measures a group and returns its rows (lucid rows repeated once per baseline engine, with the ratio). */
export async function measureGroup(g: Group, ctx: RunContext): Promise<Row[]> {
  const budget: Budget = { ...DEFAULT_BUDGET, ...g.budget, ...ctx.budget };
  const prep = await g.prepare();
  try {
    if (g.async) {
      const ms = await measureAsync(prep, budget.rounds, g.warmup ?? true);
      const rows = toRows({ ...g, bytes: prep.bytes ?? g.bytes, rows: prep.rows ?? g.rows }, ms, ctx.variant);
      if (prep.derive && ms.length)
        for (const r of prep.derive(ms.map((m) => m.samples))) rows.push({ ...r, variant: ctx.variant });
      return rows;
    }
    // Probe: one call per case (also the first warm-up call), to classify slow cases.
    const ms: Measured[] = prep.cases.map((c) => {
      const t0 = performance.now();
      c.fn();
      const probeMs = performance.now() - t0;
      const slow = probeMs > budget.slowMs;
      const cap = slow ? Math.max(1, Math.min(budget.rounds, Math.floor(budget.slowBudgetMs / probeMs))) : Infinity;
      return { c, samples: [], probeMs, slow, cap };
    });
    const warn = prep.check?.();
    if (warn) ctx.log(`  ! ${g.name}: ${warn}`);

    const R = budget.rounds;
    for (let r = 0; r < R; r++) {
      const bench = new Bench({
        name: g.name,
        time: budget.roundTimeMs,
        iterations: 1,
        warmup: false,
        warmupTime: budget.warmupMs,
        warmupIterations: 2,
        retainSamples: true,
        throws: true,
      });
      const n = ms.length;
      const inRound: Measured[] = [];
      for (let j = 0; j < n; j++) {
        const m = ms[(j + r) % n]; // rotate the order every round
        // A slow case runs in `cap` of the R rounds, spread out.
        if (m.slow && Math.floor(((r + 1) * m.cap) / R) === Math.floor((r * m.cap) / R)) continue;
        inRound.push(m);
        bench.add(label(m.c), m.c.fn as () => void, { async: false });
      }
      if (r === 0) {
        for (const m of inRound) if (!m.slow) bench.getTask(label(m.c))!.warmupSync();
      }
      bench.runSync();
      for (const m of inRound) {
        const res = bench.getTask(label(m.c))!.result;
        if (res.state === 'errored') throw res.error;
        if (res.state !== 'completed' && res.state !== 'aborted-with-statistics')
          throw new Error(`${g.name} / ${label(m.c)}: ${res.state}`);
        m.samples.push(...(res.latency.samples ?? [res.latency.min]));
      }
    }
    return toRows(g, ms, ctx.variant);
  } finally {
    prep.dispose?.();
  }
}

async function measureAsync(prep: Prepared, rounds: number, warmup: boolean): Promise<Measured[]> {
  const ms: Measured[] = prep.cases.map((c) => ({ c, samples: [], probeMs: 0, slow: false, cap: Infinity }));
  if (warmup) for (const m of ms) await m.c.fn();
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < ms.length; j++) {
      const m = ms[(j + r) % ms.length];
      const t0 = performance.now();
      const own = await m.c.fn();
      m.samples.push(typeof own === 'number' ? own : performance.now() - t0);
    }
  }
  return ms;
}

const label = (c: Case) => `${c.bench ?? ''} ${c.engine} ${c.impl}`.trim();

function toRows(g: Group, ms: Measured[], variant: string): Row[] {
  const value = (latencyMs: number) =>
    g.unit === 'GFLOP/s'
      ? g.flops! / (latencyMs * 1e6)
      : g.unit === 'MB/s'
        ? g.bytes! / (latencyMs * 1e3)
        : g.unit === 'rows/s'
          ? (g.rows! * 1e3) / latencyMs
          : latencyMs;
  const stats = ms.map((m) => {
    const s = [...m.samples].sort((a, b) => a - b);
    return { m, best: value(s[0]), median: value(median(s)), n: s.length };
  });
  const up = higherIsBetter(g.unit);
  const better = (a: number, b: number) => (up ? a > b : a < b);
  const ratio = (lucid: number, base: number) => (up ? lucid / base : base / lucid);

  const rows: Row[] = [];
  for (const st of stats) {
    const c = st.m.c;
    const bench = c.bench ?? g.name;
    for (const stat of ['best', 'median'] as const) {
      const base: Row = {
        tier: g.tier,
        bench,
        engine: c.engine,
        impl: c.impl,
        stat,
        value: round(st[stat]),
        unit: g.unit,
        threads: 1,
        variant,
        samples: st.n,
        ...c.extra,
      };
      if (c.engine !== 'lucid' || c.baseline) {
        rows.push(base);
        continue;
      }
      // Compare against each lucid baseline case of the group, and the best implementation of every other engine on the
      // same bench, per statistic.
      const lucidBase = stats.filter(
        (o) => o.m.c.engine === 'lucid' && o.m.c.baseline && (o.m.c.bench ?? g.name) === bench,
      );
      for (const o of lucidBase)
        rows.push({ ...base, baseline: `lucid ${o.m.c.impl}`, ratio: round(ratio(st[stat], o[stat])) });
      const others = stats.filter((o) => o.m.c.engine !== 'lucid' && (o.m.c.bench ?? g.name) === bench);
      const engines = [...new Set(others.map((o) => o.m.c.engine))];
      if (engines.length === 0 && lucidBase.length === 0) rows.push(base);
      for (const e of engines) {
        let pick = others.filter((o) => o.m.c.engine === e)[0];
        for (const o of others) if (o.m.c.engine === e && better(o[stat], pick[stat])) pick = o;
        rows.push({ ...base, baseline: `${e} ${pick.m.c.impl}`, ratio: round(ratio(st[stat], pick[stat])) });
      }
    }
  }
  return rows;
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x * 10) / 10 : Number(x.toPrecision(4)));

/** One console.table of a tier's rows: one line per case, best and median side by side, ratios per baseline engine. */
export function printTable(rows: Row[]): void {
  const lines = new Map<string, Record<string, string | number>>();
  const fmt = (x: number) => (x >= 100 ? x.toFixed(1) : x >= 10 ? x.toFixed(2) : x.toFixed(3));
  for (const r of rows) {
    const key = `${r.bench}|${r.engine}|${r.impl}`;
    let line = lines.get(key);
    if (!line) {
      line = { bench: r.bench, engine: r.engine, impl: r.impl, unit: r.unit, best: '', median: '', n: r.samples };
      lines.set(key, line);
    }
    line[r.stat] = fmt(r.value);
    if (r.baseline && r.ratio !== undefined) {
      const col = `× ${r.baseline.split(' ')[0]} (best/med)`;
      const prev = typeof line[col] === 'string' ? (line[col] as string) : '';
      line[col] = r.stat === 'best' ? `${r.ratio.toFixed(2)}${prev}` : `${prev} / ${r.ratio.toFixed(2)}`;
    }
  }
  console.table([...lines.values()]);
}

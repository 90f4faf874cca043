// The fairness gate's options and its ending, defined once for `lucid check` and `lucid audit --policy`:
// the policy, the baseline and its margin, the Markdown and JUnit outputs; and
// `finishPolicy`, which compares the baseline, writes the outputs and only then raises PolicyFailure
// (exit 3 through the one error handler, src/cli/handle-error.ts).
import { InvalidArgumentError, Option } from 'commander';
import {
  failureLine,
  POLICY_DEFAULTS,
  PolicyFailure,
  type CheckResult,
  type CheckSettings,
  type Policy,
} from '../audit/policy.js';
import { checkJunit, checkMarkdown } from '../audit/policy-format.js';
import { readBaselineJson, writeTextFile } from '../node/policy.js';
import { requireWritableFile } from '../node/audit.js';
import { compareBaseline, readBaseline } from '../audit/baseline.js';

function margin(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v < 0)
    throw new InvalidArgumentError(`expected a number ≥ 0, e.g. 0.02, got "${value}"`);
  return v;
}

/** The policy options, one table: `policy` is required by lucid check and optional for lucid audit. */
export const POLICY_OPTIONS = {
  policy: (help = 'the policy (JSON): rules of thresholds per metric and attribute (docs/ci.md)') =>
    new Option('--policy <policy-file>', help),
  baseline: () =>
    new Option(
      '--baseline <file>',
      'an earlier result (lucid check --format json, or an audit.json): also fail on a regression beyond --margin',
    ),
  margin: () =>
    new Option(
      '--margin <x>',
      `how far a value may move toward its threshold before it is a regression (default: the policy's margin, else ` +
        `${POLICY_DEFAULTS.margin}; a rule's own margin wins)`,
    ).argParser(margin),
  markdown: () =>
    new Option(
      '--markdown <path>',
      'also write the Markdown summary of the policy check there (e.g. for $GITHUB_STEP_SUMMARY)',
    ),
  junit: () =>
    new Option(
      '--junit <path>',
      'also write a JUnit XML file of the policy check there: one testcase per rule and group',
    ),
} as const;

export interface PolicyCliOptions {
  policy?: string;
  baseline?: string;
  margin?: number;
  markdown?: string;
  junit?: string;
}

/**
 * The policy's files, checked before any work (a bad path must not cost an audit): the baseline read
 * and parsed, the Markdown and JUnit paths writable. Returns the baseline's JSON for finishPolicy.
 */
export async function preparePolicyFiles(opts: PolicyCliOptions): Promise<{ baseline?: unknown }> {
  if (opts.markdown) await requireWritableFile(opts.markdown, '--markdown');
  if (opts.junit) await requireWritableFile(opts.junit, '--junit');
  return opts.baseline ? { baseline: await readBaselineJson(opts.baseline) } : {};
}

/**
 * The baseline compared, the Markdown and JUnit written; returns the Markdown. Raise `policyFailure` after the rest is
 * written.
 */
export async function finishPolicy(
  result: CheckResult,
  policy: Policy,
  settings: CheckSettings,
  opts: PolicyCliOptions,
  started: number,
  early: { baseline?: unknown } = {},
): Promise<string> {
  if (opts.baseline)
    compareBaseline(
      result,
      policy,
      readBaseline(early.baseline ?? (await readBaselineJson(opts.baseline)), opts.baseline, policy, settings),
      settings,
    );
  const markdown = checkMarkdown(result);
  if (opts.markdown) await writeTextFile(opts.markdown, markdown);
  if (opts.junit) await writeTextFile(opts.junit, checkJunit(result, (Date.now() - started) / 1000));
  return markdown;
}

/** Throws the PolicyFailure of a failing result (exit 3); call it last. */
export function raiseIfFailed(result: CheckResult): void {
  if (!result.passed) throw new PolicyFailure(failureLine(result), result.counts);
}

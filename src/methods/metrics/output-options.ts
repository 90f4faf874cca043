// The options of an output of any kind, in words, defined once: the flag and the help of --band, --band-scale,
// --class, --class-order and --tolerance-units. The CLI (src/cli/options.ts) builds its options from them and the
// browser page (web/main.ts) labels its fields with them, so both say the same. Core code: no Node imports.
import { OUTPUT_KINDS } from './outputs.js';

/** One option's flag, its argument's name and its help. */
export interface OutputOptionWords {
  flag: string;
  arg: string;
  help: string;
}

export const OUTPUT_OPTION_WORDS = {
  classOrder: {
    flag: '--class-order',
    arg: '<classes>',
    help: `multiclass: ${OUTPUT_KINDS.multiclass.favourable}, comma-separated`,
  },
  toleranceUnits: {
    flag: '--tolerance-units',
    arg: '<d>',
    help:
      "regression: differences inside [-d, d] in the output's units pass (instead of the ratio band of " +
      '--tolerance)',
  },
  band: {
    flag: '--band',
    arg: '<lo-hi>',
    help:
      'score and regression: a band of the output whose canonical sets are drawn, e.g. 0.9-1.0 (in quantiles of ' +
      "the audited outputs, or the output's units with --band-scale units); give it twice to contrast two bands, " +
      'once to contrast one band with the rest (default: the top and the bottom deciles)',
  },
  bandScale: { flag: '--band-scale', arg: '<scale>', help: "how --band's numbers are read (default quantile)" },
  targetClass: {
    flag: '--class',
    arg: '<class>',
    help:
      'multiclass: a class whose canonical sets are drawn; give it twice to contrast two classes, once to contrast ' +
      'one class with the rest (default: the first and the last of --class-order)',
  },
} as const satisfies Record<string, OutputOptionWords>;

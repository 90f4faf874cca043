// The slow --help examples (whole audits, the demo, LUCID-GAN training on Adult: slowReason in
// test/helpers/examples.ts), run as written on the README's files; the cheap ones run in test/cli.
import { examplesSuite } from '../helpers/examples-suite.js';
import { fullSkip } from '../helpers/full.js';

examplesSuite('slow', fullSkip());

// Every command's --help examples that are cheap (slowReason in test/helpers/examples.ts) run as written
// on the files the README's walkthrough makes; the slow ones run in test/full/examples.test.ts.
import { examplesSuite } from '../helpers/examples-suite.js';

examplesSuite('cheap', false);

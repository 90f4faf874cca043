// The slow suites (test/full/): they run in `npm run test:full` (LUCID_TEST_FULL=1), which CI runs after
// `npm test`; under `npm test` they skip with this message.
export const FULL = process.env.LUCID_TEST_FULL === '1';
export const fullSkip = (): string | false =>
  FULL ? false : 'a slow suite: it runs in npm run test:full (LUCID_TEST_FULL=1)';

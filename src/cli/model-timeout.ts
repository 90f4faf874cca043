// --model-timeout, on every command that loads a model file: a JS-module model runs in a worker
// thread (src/node/model-host.ts), stopped, with an error and exit code 1, when loading it or one
// call of its predict takes longer.
import { InvalidArgumentError, Option } from 'commander';
import { MODEL_TIMEOUT_SECONDS } from '../node/model-host.js';

/** Seconds: a positive number (fractions allowed). */
export function positiveSeconds(value: string): number {
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v) || v <= 0)
    throw new InvalidArgumentError(`expected a positive number of seconds, got "${value}"`);
  return v;
}

export const modelTimeoutOption = () =>
  new Option(
    '--model-timeout <seconds>',
    `longest wait for a JS-module model (run in a worker thread) to load, and to answer each call of predict; past ` +
      `it the model is stopped and the command fails`,
  )
    .argParser(positiveSeconds)
    .default(MODEL_TIMEOUT_SECONDS);

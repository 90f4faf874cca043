// Node layer: engine start-up with Node-only facilities (V8 flags, reading a debug build from disk).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import v8 from 'node:v8';
import { type Engine, initEngine } from '../engine/engine.js';
import { EngineError } from '../engine/errors.js';
import { spawnNodeThread } from './threads.js';
import { isThreadCount, MAX_THREADS } from '../engine/threads.js';

let flagTried = false;

/**
 * Node 20 loads relaxed SIMD only behind a V8 flag; the flag can be set at run time before the
 * module is compiled (it is not allowed in NODE_OPTIONS). LUCID_SIMD=plain keeps the plain
 * SIMD128 build; LUCID_WASM=debug loads build/debug.wasm (assertions on).
 */
export function enableRelaxedSimd(): void {
  if (flagTried || process.env.LUCID_SIMD === 'plain') return;
  flagTried = true;
  try {
    v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  } catch {
    // an engine that refuses the flag simply keeps the plain build
  }
}

let defaultThreads: number | null = null;

/** Sets the thread count of later initNodeEngine() calls without an explicit one (the CLI's --threads). */
export function setDefaultThreads(threads: number | null): void {
  defaultThreads = threads;
}

function parseThreads(v: string, what: string): number {
  const n = Number(v);
  if (!isThreadCount(n))
    throw new EngineError('E_ARG', `${what}: expected an integer thread count in 1..${MAX_THREADS}, got "${v}"`);
  return n;
}

/**
 * Kernel threads when none is given: setDefaultThreads() (--threads), else LUCID_THREADS, else
 * the number of cores (os.availableParallelism()).
 */
export function resolveThreads(threads?: number): number {
  if (threads !== undefined) return threads;
  if (defaultThreads !== null) return defaultThreads;
  const env = process.env.LUCID_THREADS;
  if (env !== undefined && env !== '') return parseThreads(env, 'LUCID_THREADS');
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

export interface NodeEngineOptions {
  /** Kernel threads (see resolveThreads for the default). 1 runs the single-threaded engine. */
  threads?: number;
}

export async function initNodeEngine(opts: NodeEngineOptions = {}): Promise<Engine> {
  if (process.env.LUCID_WASM === 'debug') {
    const file = fileURLToPath(new URL('../../../build/debug.wasm', import.meta.url));
    return initEngine({ bytes: new Uint8Array(readFileSync(file)) });
  }
  enableRelaxedSimd();
  const threads = resolveThreads(opts.threads);
  return initEngine({ variant: process.env.LUCID_SIMD === 'plain' ? 'simd' : 'auto', threads, spawn: spawnNodeThread });
}

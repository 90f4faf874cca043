// Node layer: engine start-up with Node-only facilities (V8 flags, reading a debug build from disk).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { Engine, initEngine } from '../engine/engine.js';

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

export async function initNodeEngine(): Promise<Engine> {
  if (process.env.LUCID_WASM === 'debug') {
    const file = fileURLToPath(new URL('../../../build/debug.wasm', import.meta.url));
    return initEngine({ bytes: new Uint8Array(readFileSync(file)) });
  }
  enableRelaxedSimd();
  return initEngine({ variant: process.env.LUCID_SIMD === 'plain' ? 'simd' : 'auto' });
}

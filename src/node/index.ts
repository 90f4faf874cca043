// lucid-wasm's Node layer (`import … from 'lucid-wasm/node'`): files, the engine with Node's V8
// flags, dataset loaders, model files and black-box loading. Core APIs come from 'lucid-wasm'.
export { initNodeEngine, enableRelaxedSimd } from './engine.js';
export { spawnNodeThread } from './threads.js';
export { readCsv, writeCsv } from './csv.js';
export type { ReadOptions } from './csv.js';
export { readTable } from './read-table.js';
export type { TableReadOptions } from './read-table.js';
export { loadAdult, loadCompas, resolveDataDir, datasetAvailability, readSplitIndices } from './datasets.js';
export { saveModel, loadModel } from './model-file.js';
export type { LoadModelOptions } from './model-file.js';
export { loadBlackBox, resolveBlackBox, importOnnxRuntime, MODEL_TIMEOUT_SECONDS } from './blackbox.js';
export { auditFile, writeAudit } from './audit.js';
export type { AuditFileOptions, WrittenAudit } from './audit.js';

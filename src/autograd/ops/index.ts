export * from './elementwise.js';
export * from './reduce.js';
export * from './mean.js';
export * from './shape.js';
export * from './linalg.js';
export * from './softmax.js';
export * from './nn.js';
export * from './loss.js';

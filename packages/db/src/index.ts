export * from './schema/index.js';
export * from './pool.js';

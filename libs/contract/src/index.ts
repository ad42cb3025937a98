import type { components } from './schema.js';

export type { components, paths } from './schema.js';
export type Schemas = components['schemas'];

export * from './client.js';
export * from './enums.js';
export * from './file-kinds.js';
export * from './limits.js';
export * from './network-errors.js';
export * from './upload.js';

export * from './catalog-parity.js';
export * from './locales.js';
export * from './message-format.js';
export * from './shared-messages.js';

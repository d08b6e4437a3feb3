// Real n8n for `npm start`, the e2e and bench scripts: install, configure, start, drive.
// Versions, npm overrides and native rebuilds were checked on Debian, 2 cores, npm registry only.
// Split by concern under runtime/; this module re-exports all of it so scripts import one place.

export * from './runtime/install.mjs';
export * from './runtime/env.mjs';
export * from './runtime/packaging.mjs';
export * from './runtime/cli.mjs';
export * from './runtime/server.mjs';
export * from './runtime/rest.mjs';

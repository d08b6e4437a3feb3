// Types for test/support/prng.js.
export function mulberry32(seed: number): () => number;

/* eslint-disable @typescript-eslint/no-explicit-any */
export function readCodexFiles(): Array<{ file: string; codex: any }>;

// Types for test/support/fileLength.js: the 300-line rule for nodes/ and credentials/.
export const MAX_LINES: number;
export function lineCount(text: string): number;
export function tooLong(): string[];

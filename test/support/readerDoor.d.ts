// Types for test/support/readerDoor.js: the PDF reader's one door.
export function importsPastTheDoor(): string[];
export function reachesIn(file: string, text: string): string[];
export function repoPath(...parts: string[]): string;

export function readDoc(name: string): string;

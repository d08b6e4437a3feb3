export function mostInFlight(fn: () => Promise<void>): Promise<number>;

export function npmEnv(extra?: Record<string, string>): Record<string, string>;

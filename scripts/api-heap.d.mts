export const API_HEAP_OPTION: string;
export const API_NODE_ARGS: readonly string[];
export function apiNodeOptions(current?: string): string;

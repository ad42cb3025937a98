export const API_HEAP_OPTION: string;
export function apiNodeOptions(current?: string): string;

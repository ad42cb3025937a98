/** When an owner is told about visits of a share: never, on its first visit, on every visit, or in a daily digest. */
export const SHARE_NOTIFY = ['off', 'first', 'every', 'daily'] as const;
export type ShareNotify = (typeof SHARE_NOTIFY)[number];

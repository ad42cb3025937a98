/** What a scan found. */
export type ScanVerdict = { infected: false } | { infected: true; signature: string };

/** An antivirus engine. Throws ScanUnavailableError when it cannot give a verdict. */
export interface Scanner {
  readonly name: string;
  scan(content: Buffer): Promise<ScanVerdict>;
}

/** The engine could not be reached or did not answer in time; the scan must be retried. */
export class ScanUnavailableError extends Error {
  override readonly name = 'ScanUnavailableError';
}

export const SCANNER = Symbol('SCANNER');

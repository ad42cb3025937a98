import { createSharedownClient, isNetworkError, unwrap, type FetchResult, type SharedownClient } from '@sharedown/contract';
import type { ResolvedConfig } from './config.js';
import { networkErrorOf } from './errors.js';
import { packageInfo } from './package-info.js';

/** The typed client for one configured service, and the one place calls are unwrapped. */
export class Session {
  readonly client: SharedownClient;

  constructor(readonly config: Pick<ResolvedConfig, 'url' | 'token'> & Partial<Pick<ResolvedConfig, 'sources'>>) {
    this.client = createSharedownClient({
      baseUrl: config.url,
      token: config.token,
      headers: { 'User-Agent': `sharedown-cli/${packageInfo.version}` },
    });
  }

  /** The data of a 2xx answer; SharedownApiError for the envelope; NetworkError when nothing answered. */
  async call<T>(request: Promise<FetchResult<T>>): Promise<NonNullable<T>> {
    try {
      return await unwrap(request);
    } catch (error) {
      if (isNetworkError(error)) throw networkErrorOf(error, this.config.url);
      throw error;
    }
  }
}

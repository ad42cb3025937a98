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
    return (await this.answer(request)).data;
  }

  /** Like `call`, with the response too, for what an answer says in its headers. */
  async answer<T>(request: Promise<FetchResult<T>>): Promise<{ data: NonNullable<T>; response: Response }> {
    try {
      const result = await request;
      return { data: await unwrap(Promise.resolve(result)), response: result.response };
    } catch (error) {
      if (isNetworkError(error)) throw networkErrorOf(error, this.config.url, this.config.sources?.url);
      throw error;
    }
  }
}

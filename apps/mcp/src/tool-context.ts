import { createSharedownClient, type SharedownClient } from '@sharedown/contract';
import type { McpConfig } from './config.js';
import { packageInfo } from './package-info.js';

/** What every tool needs: the typed API client bound to this process's single token. */
export interface ToolContext {
  config: McpConfig;
  client: SharedownClient;
}

export function createToolContext(config: McpConfig): ToolContext {
  return {
    config,
    client: createSharedownClient({
      baseUrl: config.url,
      token: config.token,
      headers: { 'User-Agent': `sharedown-mcp/${packageInfo.version}` },
    }),
  };
}

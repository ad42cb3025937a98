import Bowser from 'bowser';
import { isbot } from 'isbot';
import { BoundedMemo } from '../../common/bounded-memo.js';

export type VisitorDevice = 'desktop' | 'mobile' | 'tablet' | 'other';

/** What the visit log keeps of a User-Agent besides the string itself. */
export interface VisitorAgent {
  browser: string | null;
  os: string | null;
  device: VisitorDevice;
  /** Headless browsers, HTTP libraries, crawlers, and requests that name no agent at all. */
  automated: boolean;
}

const DEVICES: Record<string, VisitorDevice> = { desktop: 'desktop', mobile: 'mobile', tablet: 'tablet' };

/** Longer strings are not browsers; they are cut before parsing so a huge header costs nothing. */
const MAX_AGENT_LENGTH = 512;

// Most visits come from a few thousand distinct agents: each is parsed once per process.
const described = new BoundedMemo<string, Readonly<VisitorAgent>>(10_000);

export function describeAgent(userAgent: string | undefined): Readonly<VisitorAgent> {
  const agent = userAgent?.slice(0, MAX_AGENT_LENGTH).trim() ?? '';
  let description = described.get(agent);
  if (description === undefined) described.set(agent, (description = parseAgent(agent)));
  return description;
}

function parseAgent(agent: string): VisitorAgent {
  if (agent === '') return { browser: null, os: null, device: 'other', automated: true };
  const parsed = Bowser.parse(agent);
  return {
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
    device: DEVICES[parsed.platform.type ?? ''] ?? 'other',
    automated: isbot(agent),
  };
}

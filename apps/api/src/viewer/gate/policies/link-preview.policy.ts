import { Injectable } from '@nestjs/common';
import { isLinkPreviewAgent } from '../../visitor/link-preview-agents.js';
import { PASS, type GatePolicy, type GateStep, type Visit } from './gate-policy.js';

/** HEAD and link previews learn that the link exists, nothing more, and never use up a visit. */
@Injectable()
export class LinkPreviewPolicy implements GatePolicy {
  check({ request }: Visit): GateStep {
    if (request.method === 'HEAD') return { kind: 'link-exists' };
    if (isLinkPreviewAgent(request.userAgent)) return { kind: 'link-preview' };
    return PASS;
  }
}

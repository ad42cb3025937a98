import { maskedIpPrefix } from '../../common/client-address.js';
import type { ViewedShare } from '../share-view/share-view.repository.js';
import type { ViewerRequest } from '../visitor/viewer-answer.js';
import type { VisitLogEntry } from './visit-log.repository.js';
import { describeAgent } from './visitor-agent.js';

const MAX_REFERER = 2048;
const MAX_AGENT = 512;

/** The log row of an admitted visit; only the masked address prefix is kept, never the address. */
export function visitLogEntry(visit: {
  id: string;
  at: Date;
  share: ViewedShare;
  request: ViewerRequest;
  visitorId: string;
  loginEmail: string | null;
  admission: { visitCount: number; uniqueVisitCount: number };
}): VisitLogEntry {
  const { request } = visit;
  const agent = describeAgent(request.userAgent);
  return {
    id: visit.id,
    shareId: visit.share.id,
    at: visit.at,
    visitorId: visit.visitorId,
    ipPrefix: maskedIpPrefix(request.ip),
    referer: request.referer ? request.referer.slice(0, MAX_REFERER) : null,
    userAgent: request.userAgent ? request.userAgent.slice(0, MAX_AGENT) : null,
    browser: agent.browser,
    os: agent.os,
    device: agent.device,
    loginEmail: visit.share.requireLogin ? visit.loginEmail : null,
    automated: agent.automated,
    measured: !request.doNotTrack,
    notify: visit.share.notify,
    visitCount: visit.admission.visitCount,
    uniqueVisitCount: visit.admission.uniqueVisitCount,
  };
}

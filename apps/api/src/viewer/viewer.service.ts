import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-context.js';
import { maskedIpPrefix } from '../common/client-address.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { AgreementAcceptancesRepository } from './gate/agreement-acceptances.repository.js';
import { DocumentCache } from './documents/document-cache.js';
import { FrameAdmissions } from './visit-log/frame-admissions.js';
import { frameDocument } from './frames/frame-document.js';
import { FrameTickets, type FrameWatermarkViewer } from './frames/frame-tickets.js';
import { ViewerGate } from './gate/gate.js';
import { refused } from './gate/gate-stop.js';
import { isLinkPreviewAgent } from './visitor/link-preview-agents.js';
import { viewPath } from '../shares/share-row.js';
import { PASS, newVisit } from './gate/policies/gate-policy.js';
import { StatePolicy } from './gate/policies/state.policy.js';
import { ShareViewRepository, type Admission, type ViewedShare } from './share-view/share-view.repository.js';
import type { CookieToSet, ViewerRequest } from './visitor/viewer-answer.js';
import type { ViewResult } from './pages/view-result.js';
import { VISITOR_COOKIE, ViewerIdentity } from './visitor/viewer-identity.js';
import { CollectionPasses } from './collections/collection-passes.js';
import { CollectionRepository } from './collections/collection.repository.js';
import { asksNothing, ShareGateCache } from './gate/share-gate-cache.js';
import { VisitAdmissions } from './visit-log/visit-admissions.js';
import { VisitLog } from './visit-log/visit-log.js';
import { visitLogEntry } from './visit-log/visit-log-entry.js';
import { newVisitId } from './visit-log/visit-id.js';
import { watermarkText } from './pages/watermark-text.js';

// Tokens and slugs are URL-safe base64 characters; owner segments lower-case letters, digits, _ and -.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;
const SEGMENT_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Anything else cannot be a link, and never reaches the database. */
function linkShaped(segment: string | null, token: string): boolean {
  return TOKEN_SHAPE.test(token) && (segment === null || SEGMENT_SHAPE.test(segment));
}

/**
 * The path of the link as the visitor used it: `/s/<segment>/<token>`, or the legacy `/s/<token>`.
 * A collection's document pages live below it, and its visit cookie is scoped to it.
 */
export function linkPathOf(share: ViewedShare, segment: string | null): string {
  return segment === null ? `/s/${encodeURIComponent(share.token)}` : viewPath(share.ownerSegment, share.token);
}

const BACK_MARK = 'back';
const PASS_COOKIE_PREFIX = 'sd_visit_';

/**
 * The collection page as a document page links back to it. Within the visit the visitor was
 * admitted to (its pass), the list shows again without counting another visit, whether the
 * visitor comes back by this link or opens the link itself again, so browsing never uses up a
 * one-time or capped collection (the mark is kept for links already on pages).
 */
export function backToCollection(linkPath: string): string {
  return `${linkPath}?${BACK_MARK}`;
}

/** Whether the request carries any collection's pass: its cookie is scoped to that link's path. */
function carriesPass(request: ViewerRequest): boolean {
  for (const name in request.cookies) if (name.startsWith(PASS_COOKIE_PREFIX)) return true;
  return false;
}

/** An admitted visit, as the visit log and the share_visited event record it. */
export interface AdmittedVisit {
  visitId: string;
  /** Emits share_visited and logs the visit, once the page is on its way. */
  after: () => Promise<void>;
}

/** `YYYY-MM-DD HH:MM` (UTC) of a minute counted from the epoch. */
function minuteText(minute: number): string {
  return new Date(minute * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** What the page's watermark says, and who it named (for the frame's copy of it). */
interface Watermark {
  text: string;
  viewer: FrameWatermarkViewer | null;
}

/**
 * A share view: the link, then the gate (gate.ts) and only then the document. Nothing of the
 * document leaves before the visit is admitted (atomically, in PostgreSQL).
 */
@Injectable()
export class ViewerService {
  private readonly frameTickets: FrameTickets;

  constructor(
    private readonly repository: ShareViewRepository,
    private readonly documents: DocumentCache,
    private readonly admissions: VisitAdmissions,
    private readonly identity: ViewerIdentity,
    private readonly gate: ViewerGate,
    private readonly events: WebhookEventsService,
    private readonly visitLog: VisitLog,
    private readonly collections: CollectionRepository,
    private readonly passes: CollectionPasses,
    private readonly state: StatePolicy,
    private readonly acceptances: AgreementAcceptancesRepository,
    private readonly gateCache: ShareGateCache,
    private readonly frames: FrameAdmissions,
  ) {
    this.frameTickets = new FrameTickets(identity.frames);
  }

  /** The share behind `/s/<segment>/<token>` or `/s/<token>`; a segment that is not the owner's finds nothing. */
  async find(segment: string | null, token: string): Promise<ViewedShare | null> {
    if (!linkShaped(segment, token)) return null;
    const share = await this.repository.load(token);
    if (!share) return null;
    if (segment !== null && share.ownerSegment.toLowerCase() !== segment.toLowerCase()) return null;
    return share;
  }

  async view(request: ViewerRequest, segment: string | null, token: string): Promise<ViewResult> {
    if (!linkShaped(segment, token)) return { kind: 'not-found' };
    if (request.method === 'GET' && carriesPass(request)) {
      const list = await this.listInVisit(request, segment, token);
      if (list) return list;
    }
    const visitor = this.identity.visitorKey(request);
    // A browser's GET of a link whose gate row this process holds goes straight to the gate (and a
    // link that asks nothing straight to its admission); otherwise it reads the link and, when the
    // share asks nothing of the visitor, is judged and admitted by the database in the same round
    // trip: no policy of the gate has anything to ask.
    const browsing = request.method === 'GET' && !isLinkPreviewAgent(request.userAgent);
    const held = browsing ? this.gateCache.find(segment, token) : null;
    const mark = this.gateCache.mark();
    const opened = browsing && !held ? await this.admissions.open(segment, token, visitor.key) : null;
    const share = held ?? (browsing ? (opened?.share ?? null) : await this.find(segment, token));
    if (!share) return { kind: 'not-found' };
    if (opened) this.gateCache.keep(share, mark);
    const admission =
      opened?.admission ??
      (held && asksNothing(held, held.hasPassword && this.identity.hasAccess(request, held))
        ? await this.admissions.admit(held.id, { visitorKey: visitor.key, userId: null, browserKey: null })
        : null);
    if (admission) {
      const cookies = visitor.cookie ? [visitor.cookie] : [];
      if (admission.outcome !== 'ADMITTED') return { kind: 'stopped', share, stop: refused(admission.outcome), cookies };
      return this.shown(request, share, admission, cookies, null, visitor.key, null);
    }
    const visit = newVisit(request, share, visitor);
    const stop = await this.gate.pass(visit);
    if (stop) return { kind: 'stopped', share, stop, cookies: visit.cookies };
    if (share.folderId !== null) {
      return this.collectionShown(request, segment, share, visit.admission!, visit.cookies, visit.user, visitor.key);
    }
    return this.shown(request, share, visit.admission!, visit.cookies, visit.user, visitor.key, visit.acceptance);
  }

  /** An admitted visit: its document, watermark and frame, and its share_visited event. */
  private async shown(
    request: ViewerRequest,
    share: ViewedShare,
    admission: Admission,
    cookies: CookieToSet[],
    user: AuthUser | null,
    visitorKey: string,
    acceptance: { name: string | null } | null,
  ): Promise<ViewResult> {
    const { visitId, after } = this.admitted(request, share, admission, user, visitorKey);
    return this.present(request, share, { user, visitorKey, visitId, cookies, after, acceptance });
  }

  /**
   * An admitted visit of a collection: its page, listing the documents as they are now, and the
   * cookie that lets this visitor open them within this visit without counting again.
   */
  private async collectionShown(
    request: ViewerRequest,
    segment: string | null,
    share: ViewedShare,
    admission: Admission,
    cookies: CookieToSet[],
    user: AuthUser | null,
    visitorKey: string,
  ): Promise<ViewResult> {
    const { visitId, after } = this.admitted(request, share, admission, user, visitorKey);
    const linkPath = linkPathOf(share, segment);
    const documents = await this.collections.documents(share.folderId!, share.ownerId);
    const pass = this.passes.issue(share, visitId, visitorKey, linkPath, user);
    return { kind: 'collection', share, documents, linkPath, cookies: [...cookies, pass], after };
  }

  /**
   * A collection's list again, within the visitor's admitted visit (its pass, re-checked): nothing
   * is counted, no event is sent. Null: no such visit, through the gate then.
   */
  private async listInVisit(request: ViewerRequest, segment: string | null, token: string): Promise<ViewResult | null> {
    const share = await this.find(segment, token);
    if (!share || share.folderId === null) return null;
    const visitor = this.identity.visitorKey(request);
    if ((await this.passes.visitOf(request, share, visitor.key)) === null) return null;
    // Revoked, expired, trashed or disabled since: gone for this visit too. Used up is fine: it was admitted.
    const stop = this.state.check(newVisit(request, { ...share, consumed: false }, visitor));
    if (stop !== PASS) return { kind: 'stopped', share, stop, cookies: [] };
    const documents = await this.collections.documents(share.folderId, share.ownerId);
    return { kind: 'collection', share, documents, linkPath: linkPathOf(share, segment), cookies: [] };
  }

  /**
   * The document page of an admitted visit (a single file's, or a collection's document with
   * `share` naming that document): content, watermark, frame and beacon. `after` runs once the page
   * is on its way; a document opened within a visit admitted before has none.
   */
  async present(
    request: ViewerRequest,
    share: ViewedShare,
    visit: {
      user: AuthUser | null;
      visitorKey: string;
      visitId: string;
      cookies: CookieToSet[];
      after?: () => Promise<void>;
      backUrl?: string;
      /** This visitor's acceptance of the share's agreement, when the gate found it (else looked up for `{name}`). */
      acceptance?: { name: string | null } | null;
    },
  ): Promise<ViewResult> {
    const { user, visitorKey, visitId, cookies } = visit;
    // Cached after the first view of a version; a CLEAN version's rendering only fails on a database error.
    const content = share.fileKind === null ? null : await this.documents.get(share.versionId!, share.fileKind);
    if (content === null) return { kind: 'stopped', share, stop: { kind: 'unavailable' }, cookies };
    const watermark = share.watermarkEnabled
      ? await this.watermark(share, user, request, await this.acceptedName(share, visitorKey, visit.acceptance))
      : null;
    return {
      kind: 'shown',
      share,
      content,
      watermark: watermark?.text ?? null,
      frameUrl: share.fileKind === 'HTML' ? this.frameUrl(share, visitorKey, watermark) : null,
      // A visitor who asked not to be tracked gets no beacon: the page cannot measure the visit.
      beacon: request.doNotTrack ? null : this.identity.visits.sign(`${share.id}.${visitId}.${share.fileId}`),
      cookies,
      after: visit.after,
      backUrl: visit.backUrl,
    };
  }

  /** A visit the gate admitted: its id, and its share_visited event and visit log row, to write once the page is sent. */
  admitted(
    request: ViewerRequest,
    share: ViewedShare,
    admission: Admission,
    user: AuthUser | null,
    visitorKey: string,
  ): AdmittedVisit {
    const data = {
      shareId: share.id,
      token: share.token,
      fileId: share.fileId,
      fileName: share.fileName,
      fileKind: share.fileKind,
      // A collection's visit names its folder (and fileName is the folder's name).
      ...(share.folderId !== null && { folderId: share.folderId }),
      visitCount: admission.visitCount,
      uniqueVisitCount: admission.uniqueVisitCount,
      ipPrefix: maskedIpPrefix(request.ip),
      referer: request.referer ?? '',
    };
    const at = new Date();
    const visitId = newVisitId(at);
    return {
      visitId,
      // Not an async function: its suspended frame would keep this whole view (request, cookies,
      // admission) alive until the log's batch is written, 10 ms or more, past a scavenge or two of
      // the young generation; waiting holds only the log entry and the event's data this way.
      after: () => {
        const entry = visitLogEntry({
          id: visitId,
          at,
          share,
          request,
          visitorId: this.identity.visitorId(visitorKey),
          loginEmail: user?.email ?? null,
          admission,
        });
        const logged = this.visitLog.record(entry);
        // The event's enqueue is done long before the log's batch: then the log's own promise, nothing around it.
        return this.events.emit(share.ownerId, 'share_visited', data).then(() => logged);
      },
    };
  }

  /**
   * The author's HTML for the sandboxed frame of an admitted view, or null (the 410 page). The
   * ticket must be authentic and fresh, the request must carry the visitor cookie of the visit
   * that minted it, the share must still show its document (not revoked, trashed, purged,
   * expired or quarantined, the version still CLEAN), and the ticket must not have been used
   * before. A HEAD request learns whether the ticket is good for this visitor, and uses nothing.
   */
  async frame(request: ViewerRequest, sealed: string): Promise<{ body: Buffer } | null> {
    const ticket = this.frameTickets.open(sealed);
    if (!ticket) return null;
    const visitorKey = this.identity.visitors.verify(request.cookies[VISITOR_COOKIE]);
    if (visitorKey === null || this.frameTickets.visitorDigest(visitorKey) !== ticket.visitor) return null;
    if (request.method !== 'GET') return { body: Buffer.alloc(0) };
    const viewer = ticket.watermark?.viewer ?? null;
    const admitted = await this.frames.use({
      id: ticket.id,
      shareId: ticket.shareId,
      versionId: ticket.versionId,
      expiresAt: ticket.expiresAt,
      userId: viewer?.userId ?? null,
      visitorId: this.identity.visitorId(visitorKey),
    });
    if (!admitted) return null;
    const content = await this.documents.get(ticket.versionId, 'HTML');
    if (content === null) return null;
    // The page's text, resolved from what the ticket carries; a watermark switched on since the page was served names the address.
    let watermark: string | null = null;
    if (ticket.watermark || admitted.watermarkEnabled) {
      const minute = viewer?.minute ?? Math.floor(Date.now() / 60_000);
      watermark = resolvedWatermark(admitted.watermarkText, {
        email: admitted.email,
        name: admitted.acceptedName,
        address: viewer?.address ?? maskedIpPrefix(request.ip),
        minute,
      });
    }
    return { body: frameDocument(content.bytes, content.doctypeLength, ticket.copyProtection, watermark) };
  }

  /**
   * The name this visitor gave on the share's current agreement, for a `{name}` watermark: from the
   * gate's lookup when it made one, else one indexed query (a collection's document within a visit).
   */
  private async acceptedName(
    share: ViewedShare,
    visitorKey: string,
    acceptance: { name: string | null } | null | undefined,
  ): Promise<string | null> {
    if (acceptance) return acceptance.name;
    if (share.agreementSha256 === null || !share.watermarkText?.includes('{name}')) return null;
    const found = await this.acceptances.accepted(share.id, this.identity.visitorId(visitorKey), share.agreementSha256);
    return found?.name ?? null;
  }

  /** The frame of this view: a ticket for this share, version and visitor, good once. */
  private frameUrl(share: ViewedShare, visitorKey: string, watermark: Watermark | null): string {
    const ticket = this.frameTickets.mint({
      shareId: share.id,
      versionId: share.versionId!,
      visitorKey,
      copyProtection: share.copyProtection,
      watermark: watermark ? { viewer: watermark.viewer } : null,
    });
    return `/s/_render/${ticket}`;
  }

  /** The share's text (its placeholders filled in), else who is looking and when: the signed-in e-mail or the masked address. */
  private async watermark(
    share: ViewedShare,
    user: AuthUser | null,
    request: ViewerRequest,
    name: string | null,
  ): Promise<Watermark> {
    // Either cookie may carry the sign-in: the console's, or a separate render host's own.
    const signedIn = user ?? (this.identity.mayBeSignedIn(request) ? await this.identity.user(request) : null);
    // An address nobody proved names nobody: such a visitor is marked like an anonymous one.
    const viewer = signedIn?.emailVerified ? signedIn : null;
    const minute = Math.floor(Date.now() / 60_000);
    const address = maskedIpPrefix(request.ip);
    return {
      text: resolvedWatermark(share.watermarkText, { email: viewer?.email ?? null, name, address, minute }),
      // The frame fills in the same text from these: the account's proven e-mail, this visitor's acceptance, the address and minute.
      viewer: { userId: viewer?.id ?? null, address, minute },
    };
  }
}

/**
 * The text of a view's watermark: the share's template with its placeholders filled in, or, without
 * a template (or one that says nothing for this view), the e-mail or address and the minute.
 */
function resolvedWatermark(
  template: string | null,
  facts: { email: string | null; name: string | null; address: string; minute: number },
): string {
  const text = template
    ? watermarkText(template, { email: facts.email, name: facts.name, at: new Date(facts.minute * 60_000), ip: facts.address })
    : '';
  return text || `${facts.email ?? facts.address} · ${minuteText(facts.minute)} UTC`;
}

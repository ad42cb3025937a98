import {
  FILE_KINDS,
  ISSUE_CODES,
  ISSUE_LEVELS,
  LIMITS,
  SCAN_STATUSES,
  SLUG_PATTERN,
  WATERMARK_TEXT_PATTERN,
  type Schemas,
} from '@sharedown/contract';
import { z } from 'zod';

export const kindSchema = z
  .enum(FILE_KINDS)
  .describe('Document kind: HTML (a full or partial HTML page), MARKDOWN (CommonMark), TEXT (plain text)');

export type Kind = z.infer<typeof kindSchema>;

const visits = (what: string) =>
  z
    .number()
    .int()
    .min(LIMITS.visits.min)
    .max(LIMITS.visits.max)
    .nullable()
    .optional()
    .describe(`${what} (${LIMITS.visits.min}..${LIMITS.visits.max}; null = unlimited)`);

/** When the owner hears of visits: the contract's ShareNotify (schemas.spec.ts checks that they agree). */
export const SHARE_NOTIFY = ['off', 'first', 'every', 'daily'] as const satisfies readonly Schemas['ShareNotify'][];

/**
 * Policies of a share link, the ShareInput of the REST API: every field is optional and omitted
 * fields keep the service default. The one `options` object of service_share, service_share_folder
 * and service_update_share (and `share` of service_upload); each tool leaves out what it cannot take.
 */
export const shareInputSchema = z
  .strictObject({
    expiresInDays: z
      .number()
      .int()
      .min(LIMITS.expiresInDays.min)
      .max(LIMITS.expiresInDays.max)
      .nullable()
      .optional()
      .describe(`Days until the link expires (${LIMITS.expiresInDays.min}..${LIMITS.expiresInDays.max}); null = never expires`),
    password: z
      .string()
      .min(LIMITS.sharePassword.min)
      .max(LIMITS.sharePassword.max)
      .nullable()
      .optional()
      .describe(
        `Password visitors must enter (${LIMITS.sharePassword.min}..${LIMITS.sharePassword.max} characters); null = no password`,
      ),
    maxVisits: visits('Total successful views allowed'),
    perVisitorMaxVisits: visits('Successful views allowed per distinct visitor'),
    perLoginUserMaxVisits: visits('Successful views allowed per logged-in account; setting it makes visitors log in'),
    oneTime: z
      .boolean()
      .optional()
      .describe('Single view only (forces maxVisits = 1); the visitor confirms before the view is counted'),
    requireLogin: z.boolean().optional().describe('Visitors must be logged in to the service'),
    watermarkEnabled: z.boolean().optional().describe('Overlay a watermark on the rendered page'),
    watermarkText: z
      .string()
      .max(LIMITS.watermarkText.max)
      .regex(WATERMARK_TEXT_PATTERN)
      .nullable()
      .optional()
      .describe(
        `Watermark text (at most ${LIMITS.watermarkText.max} characters, no control characters); placeholders filled in per view: ` +
          "{email} the signed-in visitor's proven address, {name} the name given on the agreement, {date} the UTC date, " +
          '{ip} the masked IP prefix (one with nothing to say leaves nothing)',
      ),
    copyProtectionEnabled: z.boolean().optional().describe('Block copy, selection and right-click on the rendered page'),
    burnAfterReadEnabled: z.boolean().optional().describe("Content scrolled past stays hidden in the visitor's browser"),
    slug: z
      .string()
      .regex(SLUG_PATTERN)
      .nullable()
      .optional()
      .describe('Custom short name used as the last URL segment (3..32 letters, digits, _ or -); unique across the service'),
    lockedVersionId: z.string().optional().describe('Pin the share to one file version (versions are managed in the console)'),
    oneSession: z.boolean().optional().describe('Only the browser session that opened the link first may view it'),
    emailAllowlist: z
      .array(z.email().max(LIMITS.email.max))
      .max(LIMITS.emailAllowlist.max)
      .optional()
      .describe(
        `Only logged-in accounts with one of these e-mail addresses may view (at most ${LIMITS.emailAllowlist.max}); ` +
          'a change replaces the whole list, [] removes it',
      ),
    notify: z
      .enum(SHARE_NOTIFY)
      .optional()
      .describe(
        'When you are told of visits by people: first (once, on the first visit), every (each visit), daily (one digest a day), off (the default)',
      ),
    agreement: z
      .strictObject({
        text: z
          .string()
          .min(LIMITS.agreementText.min)
          .max(LIMITS.agreementText.max)
          .describe(`The agreement in Markdown (${LIMITS.agreementText.min}..${LIMITS.agreementText.max} characters)`),
        requireName: z
          .boolean()
          .optional()
          .describe(`The visitor also types a name (${LIMITS.agreementName.min}..${LIMITS.agreementName.max} characters)`),
      })
      .nullable()
      .optional()
      .describe(
        'An agreement (NDA, terms) each visitor must accept, after the password and sign-in steps, before any content; ' +
          'null removes it. Acceptances are read with service_acceptances; changing the text asks every visitor again',
      ),
  })
  .describe('Share link policies; all optional');

export type ShareInput = z.infer<typeof shareInputSchema>;

// API entities are loose objects: the service may add fields, and a newer service must not break older tool servers.
/** Who made a file or a link in a shared workspace (see service_members). */
export const createdBySchema = z.looseObject({ userId: z.string(), email: z.string() });

export const fileSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  kind: kindSchema,
  sizeBytes: z.number().int().describe('Size in bytes'),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  folderId: z.string().nullish(),
  shareCount: z.number().int().optional().describe('Number of share links of this file'),
  scanStatus: z
    .enum(SCAN_STATUSES)
    .describe('Antivirus state; only CLEAN files are shown to visitors, INFECTED files are quarantined and cannot be shared'),
  scanResult: z.string().nullish().describe('Virus signature when INFECTED'),
  createdBy: createdBySchema
    .optional()
    .describe(
      "In a shared workspace: the member who uploaded it (absent in a personal workspace and for a document request's upload)",
    ),
});

export const shareSchema = z.looseObject({
  id: z.string().describe('Share id, the shareId of service_get_share, service_update_share, service_revoke, service_visits …'),
  token: z.string().describe('Last segment of the view link (the slug when one is set)'),
  ownerSegment: z.string().optional(),
  fileId: z.string().optional().describe('The shared file; absent for a collection'),
  fileName: z.string().optional(),
  fileKind: kindSchema.optional(),
  folderId: z.string().optional().describe('A collection: the shared folder (then no fileId, fileName or fileKind)'),
  folderName: z.string().optional(),
  hasPassword: z.boolean(),
  expiresAt: z.string().nullish(),
  maxVisits: z.number().int().nullish(),
  perVisitorMaxVisits: z.number().int().nullish(),
  perLoginUserMaxVisits: z.number().int().nullish(),
  visitCount: z.number().int(),
  uniqueVisitCount: z.number().int(),
  oneTime: z.boolean(),
  requireLogin: z.boolean().optional(),
  watermarkEnabled: z.boolean().optional(),
  watermarkText: z.string().nullish(),
  copyProtectionEnabled: z.boolean().optional(),
  burnAfterReadEnabled: z.boolean().optional(),
  agreement: z
    .looseObject({
      text: z.string().describe('Markdown'),
      requireName: z.boolean(),
      sha256: z.string().describe('SHA-256 of the text, as each acceptance records it'),
    })
    .nullish()
    .describe('The agreement visitors accept first; null: none'),
  revokedAt: z.string().nullish(),
  consumedAt: z.string().nullish(),
  createdAt: z.string().optional(),
  disabledAt: z
    .string()
    .nullish()
    .describe('Set when an administrator disabled the link after an abuse report; it is revoked for good'),
  createdBy: createdBySchema
    .optional()
    .describe('In a shared workspace: the member who made the link (absent in a personal workspace)'),
});

export const viewUrlSchema = z
  .string()
  .describe(
    'Absolute view link of the share, {service}/s/<owner_segment>/<token>; give this to the people who should read the document',
  );

export const validateResultSchema = {
  kind: kindSchema,
  ok: z.boolean().describe('false when any issue has level error'),
  normalized: z
    .string()
    .describe('The content after normalization (LF line ends, tabs as 4 spaces, no BOM, no trailing whitespace)'),
  issues: z.array(
    z.looseObject({
      level: z.enum(ISSUE_LEVELS),
      code: z.enum(ISSUE_CODES).describe('What kind of issue, stable across releases and languages'),
      message: z.string().describe('The issue in words (Chinese)'),
      params: z.record(z.string(), z.string()).optional().describe('What the message names: tag, attribute, character …'),
      line: z.number().int().optional(),
      col: z.number().int().optional(),
    }),
  ),
};

/** The options of a folder link (a collection): all but the version pin, which only a single file has. */
export const shareFolderInputSchema = shareInputSchema.omit({ lockedVersionId: true });

/**
 * The options PATCH /shares/{id} changes: absent fields stay as they are, null removes.
 * The token, slug, one-time use and version pin are fixed when a link is made.
 */
export const shareUpdateSchema = shareInputSchema.omit({ oneTime: true, slug: true, lockedVersionId: true });

export const cursorSchema = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .describe('The nextCursor of the previous page, unchanged; send the same filters with it');

export const pageLimitSchema = (max: number, otherwise: string) =>
  z.number().int().min(1).max(max).optional().describe(`Rows per page (1..${max}); ${otherwise}`);

export const nextCursorSchema = z.string().nullable().describe('Pass as cursor for the next page; null on the last page');

const timestamp = z.string().describe('ISO 8601 timestamp');

/** A file as the rename, move and restore operations answer it: the list's fields and its current version. */
export const fileDetailsSchema = fileSchema.extend({
  updatedAt: timestamp,
  currentVersionId: z.string().describe('Id of the current version'),
  versionNo: z.number().int().describe('Number of the current version (1 for a fresh upload)'),
  fromRequest: z
    .looseObject({
      requestId: z.string().describe('The document request it was uploaded through'),
      review: z.string().describe('PENDING, ACCEPTED or REJECTED (see service_review_upload)'),
    })
    .nullish()
    .describe('The document request it came in through; null for your own files. A PENDING one cannot be shared until accepted'),
});

export const folderSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable().describe('null for a top-level folder'),
  createdAt: timestamp,
});

export interface FolderNode {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  children: FolderNode[];
  [key: string]: unknown;
}

export const folderNodeSchema: z.ZodType<FolderNode> = z.looseObject({
  ...folderSchema.shape,
  get children() {
    return z.array(folderNodeSchema).describe('Sub-folders, each of the same shape');
  },
});

export const trashFileSchema = fileSchema.extend({ deletedAt: timestamp.describe('When it was moved to the trash') });

export const trashFolderSchema = folderSchema.extend({
  deletedAt: timestamp.describe('When it was moved to the trash'),
  fileCount: z.number().int().describe('Files trashed together with the folder'),
});

export const purgeResultSchema = {
  purgedFiles: z.number().int().describe('Files deleted for good'),
  freedBytes: z.number().int().describe('Storage returned to the quota, in bytes'),
};

export const visitSchema = z.looseObject({
  id: z.string(),
  at: timestamp,
  visitorId: z.string().describe('Opaque and stable per visitor'),
  ipPrefix: z.string().describe('Masked network (IPv4 /24, IPv6 /48), never the full address'),
  referer: z.string().nullable(),
  userAgent: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.string().describe('desktop, mobile, tablet or other'),
  loginEmail: z.string().nullable().describe("The signed-in viewer's e-mail on shares that require login"),
  automated: z.boolean().describe('A headless browser, HTTP library or crawler'),
  durationMs: z.number().nullable().describe('Time the page was visible and in use'),
  scrollDepth: z.number().nullable().describe('Furthest point read, 0..1'),
  completed: z.boolean().describe('The reader reached the end of the document'),
  documents: z
    .array(
      z.looseObject({
        fileId: z.string(),
        fileName: z.string().nullable(),
        at: z.string(),
        durationMs: z.number().int(),
        scrollDepth: z.number(),
        completed: z.boolean(),
      }),
    )
    .optional()
    .describe("A collection's visit: the documents the reader opened within it (empty for a single file's share)"),
});

export const acceptanceSchema = z.looseObject({
  id: z.string(),
  at: timestamp,
  name: z.string().nullable().describe('The name the visitor typed (agreements with requireName)'),
  email: z.string().nullable().describe("The signed-in visitor's proven e-mail address; null otherwise"),
  ipPrefix: z.string().describe('Masked network (IPv4 /24, IPv6 /48), never the full address'),
  userAgent: z.string(),
  agreementSha256: z.string().describe('SHA-256 of the agreement text accepted'),
});

const analyticsCount = z.looseObject({ name: z.string(), visits: z.number().int() });

export const analyticsSchema = {
  days: z
    .array(z.looseObject({ day: z.string().describe('UTC day'), human: z.number().int(), automated: z.number().int() }))
    .describe('Logged visits per UTC day, oldest first, zero-filled'),
  humanVisits: z.number().int(),
  automatedVisits: z.number().int(),
  sampledVisits: z.number().int().describe('The newest human visits of the period that the figures below are read from'),
  measuredVisits: z.number().int().describe('Sampled visits whose page reported engagement'),
  medianDurationMs: z.number().nullable().describe('Median time of the measured human visits'),
  completionRate: z.number().nullable().describe('Share of measured human visits that reached the end, 0..1'),
  depthHistogram: z.array(z.number().int()).describe('Measured human visits by furthest depth: 0-10 %, …, 90-100 %'),
  topReferrers: z.array(analyticsCount).describe('The ten most frequent referrer hosts of human visits; "" = none'),
  devices: z.array(analyticsCount).describe('Human visits by device'),
  sections: z
    .array(
      z.looseObject({
        fileId: z.string().describe('The document the section belongs to (of a single share: its file)'),
        fileName: z.string(),
        index: z.number().int().describe('Position of the section: each h1, h2 or h3 heading starts one, 0 is the first'),
        heading: z.string(),
        readers: z.number().int().describe('Visits whose page had the section on screen for at least one second'),
        medianSeconds: z.number().nullable().describe('Median seconds of those readers, one decimal; null without readers'),
      }),
    )
    .describe(
      'Reading by section, by document then index: where readers linger (median seconds) and where they stop (readers falling off). Empty for text documents',
    ),
};

export const notificationSchema = z.looseObject({
  id: z.string(),
  kind: z.string().describe('first_visit, visit, daily_digest, or request_upload (a document request received a file)'),
  shareId: z.string().nullable().describe('null for a daily digest and a request upload'),
  fileName: z.string().nullable(),
  createdAt: timestamp,
  readAt: z.string().nullable().describe('null while unread'),
  data: z
    .looseObject({})
    .describe(
      'The visit (visitCount, ipPrefix, browser …), the digest (day, visits, shares) or the upload (requestId, requestTitle, uploadId, fileId, sizeBytes, uploaderName, scanStatus)',
    ),
});

export const activityEventSchema = z.looseObject({
  id: z.string(),
  action: z.string().describe('What happened, e.g. sign_in.succeeded, share.created, file.deleted, trash.emptied'),
  createdAt: timestamp,
  actorId: z.string().nullable().describe('The administrator who acted for the account; null when the account acted itself'),
  actor: z
    .object({ userId: z.string(), email: z.string() })
    .nullable()
    .describe('Who acted: the member in a shared workspace, the administrator, or the account itself'),
  targetId: z.string().nullable().describe('The token, webhook, share, file, folder or session acted on'),
  details: z.record(z.string(), z.unknown()).describe('Names and counts about the action (never a secret)'),
  ipPrefix: z.string().nullable().describe('Masked network, never the full address'),
});

export const sharePoliciesSchema = z.looseObject({
  oneSession: z.boolean().describe('Only the browser session that opened the link first may view it'),
  emailAllowlist: z.array(z.string()).describe('Addresses whose signed-in accounts may view; empty: no allowlist'),
});

export const reportSchema = z.looseObject({
  id: z.string(),
  reason: z.string().describe('What the visitor reported'),
  ipPrefix: z.string().describe("The reporter's masked network, never the address"),
  createdAt: timestamp,
  status: z.string().describe('open, dismissed, share_disabled or owner_disabled'),
  resolvedAt: z.string().nullable().describe('When an administrator resolved it; null while open'),
});

/** What a document request can be: the contract's RequestState (schemas.spec.ts checks that they agree). */
export const REQUEST_STATES = ['OPEN', 'CLOSED', 'EXPIRED', 'FULL'] as const satisfies readonly Schemas['RequestState'][];

/** The owner's decision on an upload: the route it calls, POST /requests/{id}/uploads/{uploadId}/accept or /reject. */
export const REVIEW_DECISIONS = ['accept', 'reject'] as const;

/** The limits of a document request beside LIMITS (the api's REQUEST_LIMITS; schemas.spec.ts checks them against the document). */
export const REQUEST_LIMITS = {
  title: { min: 1, max: 200 },
  instructions: { max: 5000 },
  maxUploads: { min: 1, max: 1000, default: 10 },
} as const;

/**
 * The body of POST /requests, the CreateRequestDto: `title` and the optional settings, with the
 * service's limits. Strict: a misspelt setting is refused by name instead of being dropped unseen.
 */
export const requestInputSchema = z.strictObject({
  title: z
    .string()
    .min(REQUEST_LIMITS.title.min)
    .max(REQUEST_LIMITS.title.max)
    .describe(
      `What is asked for, shown on the upload page (${REQUEST_LIMITS.title.min}..${REQUEST_LIMITS.title.max} characters)`,
    ),
  instructions: z
    .string()
    .max(REQUEST_LIMITS.instructions.max)
    .optional()
    .describe(`Markdown shown (sanitized) above the upload form (at most ${REQUEST_LIMITS.instructions.max} characters)`),
  folderId: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The folder uploads land in (from service_folders); without it, a new folder named after the title inside a top-level folder "Requests"',
    ),
  maxUploads: z
    .number()
    .int()
    .min(REQUEST_LIMITS.maxUploads.min)
    .max(REQUEST_LIMITS.maxUploads.max)
    .optional()
    .describe(
      `Uploads accepted in all (${REQUEST_LIMITS.maxUploads.min}..${REQUEST_LIMITS.maxUploads.max}, default ${REQUEST_LIMITS.maxUploads.default}); a quarantined upload gives its slot back`,
    ),
  maxBytes: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.uploadBytes)
    .optional()
    .describe(`Bytes of one upload (at most, and by default, the file limit of ${LIMITS.uploadBytes})`),
  expiresInDays: z
    .number()
    .int()
    .min(LIMITS.expiresInDays.min)
    .max(LIMITS.expiresInDays.max)
    .nullable()
    .optional()
    .describe(
      `Days until the request stops taking uploads (${LIMITS.expiresInDays.min}..${LIMITS.expiresInDays.max}); null or omitted = never expires`,
    ),
  password: z
    .string()
    .min(LIMITS.sharePassword.min)
    .max(LIMITS.sharePassword.max)
    .nullable()
    .optional()
    .describe(
      `Password uploaders must enter before the form (${LIMITS.sharePassword.min}..${LIMITS.sharePassword.max} characters); null = none`,
    ),
  emailAllowlist: z
    .array(z.email().max(LIMITS.email.max))
    .max(LIMITS.emailAllowlist.max)
    .nullable()
    .optional()
    .describe(
      `Only uploaders who prove one of these addresses with an e-mail code may upload (at most ${LIMITS.emailAllowlist.max}); null or [] = anyone with the link`,
    ),
  notify: z
    .enum(SHARE_NOTIFY)
    .optional()
    .describe(
      'When you are told of uploads, in the console and by mail: first (the first upload), every (the default), daily (a digest), off',
    ),
});

export type RequestInput = z.infer<typeof requestInputSchema>;

export const requestSchema = z.looseObject({
  id: z.string().describe('Request id, the requestId of service_get_request, service_close_request, service_request_uploads …'),
  title: z.string(),
  instructions: z.string().describe('Markdown; "" when none'),
  folderId: z.string().describe('The folder uploads land in'),
  maxUploads: z.number().int().describe('Uploads accepted in all'),
  maxBytes: z.number().int().describe('Bytes of one upload at most'),
  expiresAt: z.string().nullable().describe('ISO 8601 timestamp; null = never expires'),
  hasPassword: z.boolean(),
  emailAllowlist: z.array(z.string()).nullable().describe('Addresses that may upload; null = anyone with the link'),
  state: z
    .string()
    .describe(
      'OPEN (takes uploads), CLOSED (by you), EXPIRED (past expiresAt) or FULL (every slot taken); only OPEN takes uploads',
    ),
  uploadCount: z.number().int().describe('Slots taken: uploads kept (a quarantined one gives its slot back)'),
  url: z
    .string()
    .describe('The public upload page, {service}/r/<owner_segment>/<token>; give it to the people who should upload'),
  notify: z.string().describe('off, first, every or daily'),
  createdAt: timestamp,
  closedAt: z.string().nullable().describe('When you closed it; null while not closed'),
});

export const requestUploadSchema = z.looseObject({
  id: z.string().describe('Upload id, the uploadId of service_review_upload'),
  fileId: z.string().nullable().describe('The file it became (read it with service_read once CLEAN); null once purged'),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  scanStatus: z
    .string()
    .nullable()
    .describe('PENDING, CLEAN, INFECTED (quarantined, never readable) or SCAN_ERROR; null once the file is purged'),
  review: z
    .string()
    .describe(
      'PENDING (waits for your decision; cannot be shared), ACCEPTED (shareable like any file) or REJECTED (in the trash)',
    ),
  uploaderName: z.string().describe('The name the uploader typed'),
  uploaderEmail: z
    .string()
    .nullable()
    .describe("The uploader's e-mail address: as typed, or the proven one on a request with an allowlist; null when none"),
  message: z.string().describe('The message the uploader wrote; "" when none'),
  at: timestamp,
});

/** The roles of a workspace member: the contract's WorkspaceRole (schemas.spec.ts checks that they agree). */
export const WORKSPACE_ROLES = ['OWNER', 'ADMIN', 'EDITOR', 'VIEWER'] as const satisfies readonly Schemas['WorkspaceRole'][];

export const roleSchema = z
  .enum(WORKSPACE_ROLES)
  .describe(
    'OWNER (everything, owners included), ADMIN (members and invitations but not owners, webhooks, every document operation), EDITOR (upload, edit, share, analytics), VIEWER (reads only)',
  );

const roleField = z.string().describe('OWNER, ADMIN, EDITOR or VIEWER');

export const workspaceSchema = z.looseObject({
  id: z.string().describe("Workspace id; a personal workspace has its account's id"),
  name: z.string().describe("A shared workspace's name; a personal one is named after its account's address"),
  segment: z.string().describe('The URL segment of its links: {service}/s/<segment>/<token>'),
  personal: z.boolean().describe("true for an account's own workspace, which has no other members"),
  role: roleField.describe("Your role in it (the role of the token's creator, as it is now)"),
  quotaBytes: z.number().int().describe('Storage the workspace may use, in bytes'),
  usedBytes: z.number().int().describe('Storage its files use, in bytes'),
  memberCount: z.number().int(),
});

export const memberSchema = z.looseObject({
  userId: z.string().describe("The member's account id: the userId of service_set_role and service_remove_member"),
  email: z.string(),
  role: roleField,
  joinedAt: timestamp,
});

export const invitationSchema = z.looseObject({
  id: z.string().describe('Invitation id, the invitationId of service_revoke_invitation'),
  email: z.string().describe('The address it was sent to; only an account of that address can accept it'),
  role: roleField.describe('The role it gives'),
  createdAt: timestamp,
  expiresAt: timestamp.describe('ISO 8601 timestamp; it cannot be accepted after'),
});

/** The body of POST /workspace/invitations, the CreateInvitationDto. Strict, like the other bodies. */
export const invitationInputSchema = z.strictObject({
  email: z
    .email()
    .max(LIMITS.email.max)
    .describe(`The invitee's e-mail address (at most ${LIMITS.email.max} characters); they accept while signed in with it`),
  role: roleSchema.describe(
    'The role the invitee gets: OWNER (only an OWNER may invite one), ADMIN, EDITOR or VIEWER (reads only)',
  ),
});

export type InvitationInput = z.infer<typeof invitationInputSchema>;

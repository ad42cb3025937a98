import {
  FILE_KINDS,
  ISSUE_CODES,
  ISSUE_LEVELS,
  LIMITS,
  SCAN_STATUSES,
  SLUG_PATTERN,
  WATERMARK_TEXT_PATTERN,
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

/** Policies of a share link; every field is optional and omitted fields keep the service default. */
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
      .describe(`Watermark text (at most ${LIMITS.watermarkText.max} characters, no control characters)`),
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
      .describe(`Only logged-in accounts with one of these e-mail addresses may view (at most ${LIMITS.emailAllowlist.max})`),
  })
  .describe('Share link policies; all optional');

export type ShareInput = z.infer<typeof shareInputSchema>;

// API entities are loose objects: the service may add fields, and a newer service must not break older tool servers.
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
});

export const shareSchema = z.looseObject({
  id: z.string().describe('Share id, used by service_revoke'),
  token: z.string().describe('Last segment of the view link (the slug when one is set)'),
  ownerSegment: z.string().optional(),
  fileId: z.string().optional(),
  fileName: z.string().optional(),
  fileKind: kindSchema.optional(),
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
  revokedAt: z.string().nullish(),
  consumedAt: z.string().nullish(),
  createdAt: z.string().optional(),
  disabledAt: z
    .string()
    .nullish()
    .describe('Set when an administrator disabled the link after an abuse report; it is revoked for good'),
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

/**
 * The service's limits, as the interface contract states them. The api validates with these
 * values and publishes them in the OpenAPI document (limits.spec.ts checks that the two agree);
 * the console, the CLI and the MCP server check input with them before any round trip.
 * Ranges are inclusive; lengths count characters (code points for watermark and validate text).
 */
export const LIMITS = {
  /** Bytes of one uploaded document (413 OVER_QUOTA beyond). */
  uploadBytes: 10 * 1024 * 1024,
  /** Characters of a file or folder name. */
  fileName: { max: 255 },
  /** Characters of the text `POST /validate` checks. */
  validateChars: 1_048_576,

  expiresInDays: { min: 1, max: 3650 },
  sharePassword: { min: 4, max: 32 },
  /** maxVisits, perVisitorMaxVisits and perLoginUserMaxVisits. */
  visits: { min: 1, max: 9999 },
  watermarkText: { max: 80 },
  /** Addresses in a share's emailAllowlist. */
  emailAllowlist: { max: 1000 },
  /** Characters of an e-mail address. */
  email: { max: 254 },
  /** Characters of a share's agreement (Markdown) and of the name a visitor signs it with. */
  agreementText: { min: 1, max: 20_000 },
  agreementName: { min: 1, max: 100 },

  accountPassword: { min: 8, max: 128 },
  tokenName: { min: 1, max: 100 },
  /** Requests per minute of an API token; a new token gets the default. */
  tokenRate: { min: 1, max: 600, default: 5 },
  tokenExpiryDays: { min: 1, max: 3650 },

  /** Characters of a webhook's target URL. */
  webhookUrl: 2048,
  /** Active webhooks per account. */
  webhooksActive: 10,
} as const;

/** A share's custom short name: 3..32 letters, digits, `_` or `-`; unique across the service, case-insensitively. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

/** An account's public owner segment: 3..32 lower-case letters, digits, `_` or `-`, starting with a letter or digit. */
export const SEGMENT_PATTERN = /^[a-z0-9][a-z0-9_-]{2,31}$/;

/** Watermark text holds no C0 control character and no DEL: it is drawn on the page as typed. */
export const WATERMARK_TEXT_PATTERN = /^[^\u0000-\u001f\u007f]*$/;

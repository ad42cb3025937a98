import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ISSUE_CODES, ISSUE_LEVELS, SCAN_STATUSES } from './enums.js';
import { ACCEPTED_EXTENSIONS, FILE_KINDS } from './file-kinds.js';
import { LIMITS, SEGMENT_PATTERN, SLUG_PATTERN, WATERMARK_TEXT_PATTERN } from './limits.js';

// The document the api writes from its DTOs; the constants must say what it says.
interface JsonSchema {
  $ref?: string;
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  [keyword: string]: unknown;
}
const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, JsonSchema> };
};

function resolve(schema: JsonSchema): JsonSchema {
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!);
  if (schema.allOf?.length === 1) return { ...schema, ...resolve(schema.allOf[0]!) };
  return schema;
}

function property(schemaName: string, name: string): JsonSchema {
  const schema = document.components.schemas[schemaName];
  const found = schema?.properties?.[name];
  if (!found) throw new Error(`the document has no ${schemaName}.${name}`);
  return resolve(found);
}

const range = (schema: JsonSchema) => ({ min: schema.minimum, max: schema.maximum });
const length = (schema: JsonSchema) => ({ min: schema.minLength, max: schema.maxLength });

describe('LIMITS', () => {
  it('states the ShareInput ranges of POST /shares', () => {
    expect(range(property('CreateShareDto', 'expiresInDays'))).toEqual(LIMITS.expiresInDays);
    expect(length(property('CreateShareDto', 'password'))).toEqual(LIMITS.sharePassword);
    for (const cap of ['maxVisits', 'perVisitorMaxVisits', 'perLoginUserMaxVisits']) {
      expect(range(property('CreateShareDto', cap)), cap).toEqual(LIMITS.visits);
    }
    expect(property('CreateShareDto', 'watermarkText').maxLength).toBe(LIMITS.watermarkText.max);
    expect(property('CreateShareDto', 'emailAllowlist').maxItems).toBe(LIMITS.emailAllowlist.max);
    expect(property('CreateShareDto', 'emailAllowlist').items?.maxLength).toBe(LIMITS.email.max);
  });

  it('states the patterns of slugs, owner segments and watermark text', () => {
    expect(property('CreateShareDto', 'slug').pattern).toBe(SLUG_PATTERN.source);
    expect(property('UpdateAccountDto', 'segment').pattern).toBe(SEGMENT_PATTERN.source);
    expect(property('CreateShareDto', 'watermarkText').pattern).toBe(WATERMARK_TEXT_PATTERN.source);
  });

  it('states the validate, account, token and webhook limits', () => {
    expect(property('ValidateRequestDto', 'content').maxLength).toBe(LIMITS.validateChars);
    for (const [schema, field] of [
      ['RegisterDto', 'password'],
      ['ChangePasswordDto', 'newPassword'],
      ['PasswordResetConfirmDto', 'newPassword'],
    ] as const) {
      expect(length(property(schema, field)), `${schema}.${field}`).toEqual(LIMITS.accountPassword);
    }
    expect(property('RegisterDto', 'email').maxLength).toBe(LIMITS.email.max);
    expect(length(property('CreateTokenDto', 'name'))).toEqual(LIMITS.tokenName);
    const rate = property('CreateTokenDto', 'rateLimitPerMinute');
    expect({ ...range(rate), default: rate.default }).toEqual(LIMITS.tokenRate);
    expect(range(property('CreateTokenDto', 'expiresInDays'))).toEqual(LIMITS.tokenExpiryDays);
    expect(property('CreateWebhookDto', 'url').maxLength).toBe(LIMITS.webhookUrl);
    expect(property('CreateFolderDto', 'name').maxLength).toBe(LIMITS.fileName.max);
  });

  it('names the upload size and every accepted extension where the upload is described', () => {
    const described = String(property('UploadFormDto', 'file').description);
    expect(described).toContain(`${LIMITS.uploadBytes / 1024 / 1024} MB`);
    expect(described.match(/\.[a-z]+/g)?.sort()).toEqual([...ACCEPTED_EXTENSIONS].sort());
  });
});

describe('enums', () => {
  it('lists the kinds, scan states, issue levels and issue codes of the document, in its order', () => {
    expect(document.components.schemas.FileKind?.enum).toEqual(FILE_KINDS);
    expect(document.components.schemas.ScanStatus?.enum).toEqual(SCAN_STATUSES);
    expect(property('ValidationIssueDto', 'level').enum).toEqual(ISSUE_LEVELS);
    expect(document.components.schemas.ValidationIssueCode?.enum).toEqual(ISSUE_CODES);
    expect(document.components.schemas.ErrorCode?.enum).toEqual(ERROR_CODES);
    expect(property('ValidateRequestDto', 'kind').enum).toEqual(FILE_KINDS);
  });
});

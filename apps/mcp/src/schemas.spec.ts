import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  activityEventSchema,
  analyticsSchema,
  fileDetailsSchema,
  fileSchema,
  folderNodeSchema,
  folderSchema,
  invitationInputSchema,
  invitationSchema,
  kindSchema,
  memberSchema,
  notificationSchema,
  purgeResultSchema,
  reportSchema,
  REQUEST_STATES,
  requestInputSchema,
  requestSchema,
  requestUploadSchema,
  SHARE_NOTIFY,
  shareInputSchema,
  sharePoliciesSchema,
  shareFolderInputSchema,
  shareSchema,
  shareUpdateSchema,
  trashFileSchema,
  trashFolderSchema,
  visitSchema,
  WORKSPACE_ROLES,
  workspaceSchema,
} from './schemas.js';

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

// The OpenAPI document the api writes: the tools must accept exactly what the service accepts.
const document = createRequire(import.meta.url)('@sharedown/contract/openapi.json') as {
  components: { schemas: Record<string, JsonSchema> };
};

function resolve(schema: JsonSchema): JsonSchema {
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop()!]!);
  if (schema.allOf?.length === 1) return resolve(schema.allOf[0]!);
  return schema;
}

const CONSTRAINTS = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'maxItems', 'enum'] as const;

/** The constraints of one property, whether nullable as `type: [t, 'null']` (OpenAPI) or `anyOf` (zod). */
function constraintsOf(schema: JsonSchema): Record<string, unknown> {
  const value = resolve(schema.anyOf?.find((branch) => branch.type !== 'null') ?? schema);
  const types = [value.type ?? (schema.anyOf ? undefined : 'string')].flat().filter((type) => type && type !== 'null');
  const picked: Record<string, unknown> = {
    type: types[0],
    nullable: Boolean(schema.anyOf) || [schema.type].flat().includes('null'),
  };
  for (const keyword of CONSTRAINTS) if (value[keyword] !== undefined) picked[keyword] = value[keyword];
  if (value.items) picked.items = { maxLength: value.items.maxLength };
  return picked;
}

function propertiesOf(schema: JsonSchema, except: string[] = []): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => !except.includes(name))
      .map(([name, property]) => [name, constraintsOf(property)]),
  );
}

const toJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

// `notify` (visit notifications) is an option of every share tool, but the share object the tools
// answer with leaves it unnamed (a loose object passes it through).
const NOT_TOOL_FIELDS = ['notify'];

describe('shareInputSchema', () => {
  it('has the fields, types, ranges, patterns and list limits of the ShareInput of POST /shares', () => {
    // What is shared is an argument of its own beside the options: fileId (service_share), folderId (service_share_folder).
    const service = propertiesOf(document.components.schemas.CreateShareDto!, ['fileId', 'folderId']);
    expect(propertiesOf(toJson(shareInputSchema))).toEqual(service);
  });

  it('refuses unknown fields', () => {
    expect(shareInputSchema.safeParse({ maxVisits: 1, folderId: 'd1' }).success).toBe(false);
  });
});

describe('shareFolderInputSchema', () => {
  it('is shareInputSchema but the version pin, which the service refuses for a collection', () => {
    const service = propertiesOf(document.components.schemas.CreateShareDto!, ['fileId', 'folderId', 'lockedVersionId']);
    expect(propertiesOf(toJson(shareFolderInputSchema))).toEqual(service);
    expect(shareFolderInputSchema.safeParse({ lockedVersionId: 'v1' }).success).toBe(false);
  });
});

describe('kindSchema', () => {
  it('lists the kinds of the document', () => {
    expect(toJson(kindSchema).enum).toEqual(document.components.schemas.FileKind!.enum);
  });
});

describe('fileSchema and shareSchema', () => {
  it('name every field the service returns, so none is dropped from a tool result', () => {
    const named = (schema: JsonSchema, except: string[] = []) =>
      Object.keys(schema.properties ?? {})
        .filter((name) => !except.includes(name))
        .sort();
    expect(named(toJson(fileSchema))).toEqual(named(document.components.schemas.FileDto!));
    // A loose object: `notify` passes through tool results unnamed.
    expect(named(toJson(shareSchema))).toEqual(named(document.components.schemas.ShareDto!, NOT_TOOL_FIELDS));
  });

  it('state the scan statuses of the document', () => {
    expect(constraintsOf(toJson(fileSchema).properties!.scanStatus!).enum).toEqual(document.components.schemas.ScanStatus!.enum);
  });
});

describe('shareUpdateSchema', () => {
  it('has the fields, types, ranges, patterns and list limits of the UpdateShareDto of PATCH /shares/{id}', () => {
    const service = propertiesOf(document.components.schemas.UpdateShareDto!);
    // The contract's notify is a $ref to the ShareNotify enum, which constraintsOf resolves.
    expect(propertiesOf(toJson(shareUpdateSchema))).toEqual(service);
  });

  it('is shareInputSchema, field for field, less what a live link keeps', () => {
    const fixed = ['oneTime', 'slug', 'lockedVersionId'];
    expect(toJson(shareUpdateSchema).properties).toEqual(
      Object.fromEntries(Object.entries(toJson(shareInputSchema).properties!).filter(([name]) => !fixed.includes(name))),
    );
    expect(shareUpdateSchema.safeParse({ slug: 'abc' }).success).toBe(false);
  });

  it('lists the notify choices of the document', () => {
    expect([...SHARE_NOTIFY].sort()).toEqual([...(document.components.schemas.ShareNotify!.enum as string[])].sort());
  });
});

describe('entity schemas of the new tools', () => {
  const named = (schema: JsonSchema) => Object.keys(schema.properties ?? {}).sort();

  it.each([
    ['fileDetailsSchema', 'ConsoleFileDto', fileDetailsSchema],
    ['folderSchema', 'FolderDto', folderSchema],
    ['folderNodeSchema', 'FolderNodeDto', folderNodeSchema],
    ['trashFileSchema', 'TrashFileDto', trashFileSchema],
    ['trashFolderSchema', 'TrashFolderDto', trashFolderSchema],
    ['visitSchema', 'ShareVisitDto', visitSchema],
    ['notificationSchema', 'NotificationDto', notificationSchema],
    ['activityEventSchema', 'AuditEventDto', activityEventSchema],
    ['sharePoliciesSchema', 'SharePoliciesDto', sharePoliciesSchema],
    ['reportSchema', 'ShareReportDto', reportSchema],
    ['purgeResultSchema', 'PurgeResultDto', z.object(purgeResultSchema)],
    ['analyticsSchema', 'ShareAnalyticsDto', z.object(analyticsSchema)],
    ['requestSchema', 'RequestDto', requestSchema],
    ['requestUploadSchema', 'RequestUploadDto', requestUploadSchema],
    ['workspaceSchema', 'WorkspaceDto', workspaceSchema],
    ['memberSchema', 'MemberDto', memberSchema],
    ['invitationSchema', 'InvitationDto', invitationSchema],
  ] as const)('%s names every field of %s', (_name, dto, schema) => {
    const json = toJson(schema);
    // A recursive schema is written as a $ref into $defs.
    const own = json.$ref ? (json.$defs as Record<string, JsonSchema>)[json.$ref.split('/').pop()!]! : json;
    expect(named(own)).toEqual(named(document.components.schemas[dto]!));
  });
});

describe('requestInputSchema', () => {
  it('has the fields, types, ranges and list limits of the CreateRequestDto of POST /requests', () => {
    // folderId is a UUID to the service and any id to the tool (the service answers NOT_FOUND or VALIDATION).
    const service = propertiesOf(document.components.schemas.CreateRequestDto!, ['folderId']);
    expect(propertiesOf(toJson(requestInputSchema), ['folderId'])).toEqual(service);
    expect(Object.keys(toJson(requestInputSchema).properties!).sort()).toEqual(
      Object.keys(document.components.schemas.CreateRequestDto!.properties!).sort(),
    );
    expect(toJson(requestInputSchema).required).toEqual(document.components.schemas.CreateRequestDto!.required);
  });

  it('refuses unknown fields', () => {
    expect(requestInputSchema.safeParse({ title: 'x', maxVisits: 1 }).success).toBe(false);
  });

  it('lists the request states of the document', () => {
    expect([...REQUEST_STATES]).toEqual(document.components.schemas.RequestState!.enum);
  });
});

describe('invitationInputSchema', () => {
  it('has the fields, types and limits of the CreateInvitationDto of POST /workspace/invitations', () => {
    // zod writes its address check as a pattern where the document says format: email.
    const { pattern, ...email } = propertiesOf(toJson(invitationInputSchema)).email!;
    expect(pattern).toEqual(expect.any(String));
    expect(email).toEqual(propertiesOf(document.components.schemas.CreateInvitationDto!).email);
    expect(propertiesOf(toJson(invitationInputSchema), ['email'])).toEqual(
      propertiesOf(document.components.schemas.CreateInvitationDto!, ['email']),
    );
    expect(toJson(invitationInputSchema).required).toEqual(document.components.schemas.CreateInvitationDto!.required);
  });

  it('refuses unknown fields and roles the service does not have', () => {
    expect(invitationInputSchema.safeParse({ email: 'ann@example.com', role: 'EDITOR' }).success).toBe(true);
    expect(invitationInputSchema.safeParse({ email: 'ann@example.com', role: 'EDITOR', days: 3 }).success).toBe(false);
    expect(invitationInputSchema.safeParse({ email: 'ann@example.com', role: 'editor' }).success).toBe(false);
  });

  it('lists the workspace roles of the document', () => {
    expect([...WORKSPACE_ROLES]).toEqual(document.components.schemas.WorkspaceRole!.enum);
  });
});

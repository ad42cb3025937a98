import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS, unwrap } from '@sharedown/contract';
import { z } from 'zod';
import { LocalValidationError } from '../api-errors.js';
import { fileDetailsSchema, folderSchema } from '../schemas.js';
import type { ToolContext } from '../tool-context.js';
import { runTool } from '../tool-result.js';

export interface MoveArgs {
  fileId?: string;
  folderId?: string | null;
  parentId?: string | null;
  name?: string;
}

export type MovePlan =
  | { type: 'file'; id: string; body: { name?: string; folderId?: string | null } }
  | { type: 'folder'; id: string; body: { name?: string; parentId?: string | null } };

/**
 * Which PATCH the arguments ask for. They mirror the two REST bodies: with fileId, folderId is
 * where the file goes; without it, folderId is the folder that moves and parentId where it goes.
 */
export function movePlanOf({ fileId, folderId, parentId, name }: MoveArgs): MovePlan {
  if (fileId !== undefined) {
    if (parentId !== undefined) {
      throw new LocalValidationError('parentId moves a folder; to move a file give folderId (null = the root)');
    }
    if (name === undefined && folderId === undefined) {
      throw new LocalValidationError('give name, folderId or both: nothing to change');
    }
    return {
      type: 'file',
      id: fileId,
      body: { ...(name !== undefined ? { name } : {}), ...(folderId !== undefined ? { folderId } : {}) },
    };
  }
  if (folderId === undefined || folderId === null) {
    throw new LocalValidationError(
      'give fileId to rename or move a file, or folderId (without fileId) to rename or move a folder',
    );
  }
  if (name === undefined && parentId === undefined) {
    throw new LocalValidationError('give name, parentId or both: nothing to change');
  }
  return {
    type: 'folder',
    id: folderId,
    body: { ...(name !== undefined ? { name } : {}), ...(parentId !== undefined ? { parentId } : {}) },
  };
}

export function registerServiceMoveTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'service_move',
    {
      title: 'Rename or move a file or folder',
      description: [
        'A file: give fileId, and name (the new name) and/or folderId (the folder to move it into; null = the root).',
        'A folder: give folderId (the folder itself) without fileId, and name and/or parentId (the folder to move it into; null = the top level).',
        'A file keeps its kind: the new name needs an extension of the same kind (.md/.markdown, .html/.htm, .txt/.text).',
        'Share links keep working. Errors: DUPLICATE when the target folder already holds that name, CONFLICT when a folder would move into itself or below itself, NOT_FOUND when an id is not yours.',
      ].join(' '),
      inputSchema: {
        fileId: z.string().min(1).optional().describe('The file to rename or move'),
        folderId: z
          .string()
          .min(1)
          .nullable()
          .optional()
          .describe('With fileId: the target folder (null = the root). Without fileId: the folder to rename or move'),
        parentId: z.string().min(1).nullable().optional().describe('Folders only: the new parent folder (null = the top level)'),
        name: z.string().trim().min(1).max(LIMITS.fileName.max).optional().describe('The new name'),
      },
      outputSchema: {
        file: fileDetailsSchema.optional().describe('The file after the change, when fileId was given'),
        folder: folderSchema.optional().describe('The folder after the change, when a folder was moved'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(context, async () => {
        const plan = movePlanOf(args);
        const path = { path: { id: plan.id } };
        return plan.type === 'file'
          ? unwrap(context.client.PATCH('/api/v1/files/{id}', { params: path, body: plan.body }))
          : unwrap(context.client.PATCH('/api/v1/folders/{id}', { params: path, body: plan.body }));
      }),
  );
}

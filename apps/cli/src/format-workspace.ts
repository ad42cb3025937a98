import type { Schemas } from '@sharedown/contract';
import { InvalidArgumentError } from 'commander';
import type { Words } from './messages.js';
import { formatBytes, formatDate, type Output } from './output.js';

export type WorkspaceView = Schemas['WorkspaceDto'];
export type MemberView = Schemas['MemberDto'];
export type InvitationView = Schemas['InvitationDto'];
export type WorkspaceRole = Schemas['WorkspaceRole'];

/** The roles of a workspace member, as the contract names them (workspace.spec.ts checks that they agree). */
export const WORKSPACE_ROLES = ['OWNER', 'ADMIN', 'EDITOR', 'VIEWER'] as const satisfies readonly WorkspaceRole[];

/** A role in any case: `editor` is EDITOR. */
export function workspaceRole(value: string): WorkspaceRole {
  const role = value.trim().toUpperCase();
  if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) {
    throw new InvalidArgumentError(`expected one of ${WORKSPACE_ROLES.join(', ')}.`);
  }
  return role as WorkspaceRole;
}

function roleLabel(out: Output, role: string): string {
  return role === 'OWNER' || role === 'ADMIN' ? out.color.bold(role) : role;
}

/** The workspace a token acts in, as key/value lines. */
export function printWorkspace(out: Output, words: Words, workspace: WorkspaceView): void {
  const { fields, values } = words.messages.workspace;
  const percent = workspace.quotaBytes > 0 ? ((workspace.usedBytes / workspace.quotaBytes) * 100).toFixed(1) : '0.0';
  out.fields([
    [fields.name, out.color.bold(workspace.name)],
    [fields.id, workspace.id],
    [fields.kind, workspace.personal ? values.personal : values.shared],
    [fields.segment, words.format(words.messages.workspace.segmentValue, { segment: workspace.segment })],
    [fields.role, roleLabel(out, workspace.role)],
    [
      fields.storage,
      words.format(words.messages.workspace.storageValue, {
        used: formatBytes(workspace.usedBytes),
        quota: formatBytes(workspace.quotaBytes),
        percent,
      }),
    ],
    [fields.members, words.format(words.messages.workspace.memberCount, { count: workspace.memberCount })],
  ]);
}

export function printMemberTable(out: Output, words: Words, members: MemberView[]): void {
  const { columns } = words.messages.workspace;
  out.table(
    [columns.userId, columns.email, columns.role, columns.joined],
    members.map((member) => [member.userId, member.email, roleLabel(out, member.role), formatDate(member.joinedAt) ?? '']),
  );
}

export function printInvitationTable(out: Output, words: Words, invitations: InvitationView[]): void {
  const { columns } = words.messages.workspace;
  out.table(
    [columns.id, columns.email, columns.role, columns.created, columns.expires],
    invitations.map((invitation) => [
      invitation.id,
      invitation.email,
      roleLabel(out, invitation.role),
      formatDate(invitation.createdAt) ?? '',
      formatDate(invitation.expiresAt) ?? '',
    ]),
  );
}

/** The note `members invite` writes to stderr beside the link. */
export function invitedNote(words: Words, invitation: InvitationView): string {
  return words.format(words.messages.workspace.invitedNote, {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expires: formatDate(invitation.expiresAt) ?? invitation.expiresAt,
  });
}

/** The line `members role` prints. */
export function roleLine(words: Words, member: MemberView): string {
  return words.format(words.messages.workspace.roleLine, { email: member.email, userId: member.userId, role: member.role });
}

/** The line `members rm` prints. */
export function removedLine(words: Words, userId: string): string {
  return words.format(words.messages.workspace.removedLine, { userId });
}

/** The line `invitations revoke` prints. */
export function revokedLine(words: Words, invitation: InvitationView): string {
  return words.format(words.messages.workspace.revokedLine, { email: invitation.email, id: invitation.id });
}

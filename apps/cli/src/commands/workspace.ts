import { Option, type Command } from 'commander';
import type { CommandContext } from '../context.js';
import {
  invitedNote,
  printInvitationTable,
  printMemberTable,
  printWorkspace,
  removedLine,
  revokedLine,
  roleLine,
  workspaceRole,
  type MemberView,
  type WorkspaceRole,
} from '../format-workspace.js';
import { messageLocale } from '../language.js';
import { wordsOf, type Words } from '../messages.js';

const ROLES_HELP =
  'OWNER (everything, owners included), ADMIN (members and invitations but not owners), EDITOR (documents and links), VIEWER (reads only)';

/**
 * The workspace the token acts in, its members and its invitations: `sharedown workspace`,
 * `sharedown members ls|invite|role|rm` and `sharedown invitations ls|revoke`.
 */
export function registerWorkspaceCommands(program: Command, context: CommandContext): void {
  const words = (): Words => wordsOf(messageLocale(context.io.env));

  program
    .command('workspace')
    .description('show the workspace the token acts in: its name, segment, your role, storage and members')
    .addHelpText(
      'after',
      "\nA token acts in the workspace it was made in (in the console), with its creator's role there, as it is at each call.",
    )
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.GET('/api/v1/workspace'));
      out.result(result, () => printWorkspace(out, words(), result.workspace));
    });

  const members = program
    .command('members')
    .description(
      'the members of the workspace the token acts in: list (any role); invite, change a role, remove (OWNER and ADMIN)',
    );

  members
    .command('ls')
    .alias('list')
    .description('list the members by e-mail address, with their user id, role and when they joined')
    .addOption(new Option('--cursor <cursor>', 'one page (50 members), after the page that printed this cursor'))
    .action(async (options: { cursor?: string }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const page = (cursor: string | undefined) =>
        session.call(session.client.GET('/api/v1/workspace/members', { params: { query: cursor ? { cursor } : {} } }));
      let result: { members: MemberView[]; nextCursor?: string | null };
      if (options.cursor !== undefined) {
        result = await page(options.cursor);
      } else {
        // Every page, in the service's page size (the route takes no limit).
        const all: MemberView[] = [];
        let cursor: string | undefined;
        do {
          const read = await page(cursor);
          all.push(...read.members);
          cursor = read.nextCursor ?? undefined;
        } while (cursor);
        result = { members: all };
      }
      const said = words();
      out.result(result, () => printMemberTable(out, said, result.members));
      if (result.nextCursor) out.note(said.format(said.messages.workspace.moreMembers, { cursor: result.nextCursor }));
    });

  members
    .command('invite')
    .description('invite an e-mail address with a role; prints the invitation link (single use, good for 7 days)')
    .argument('<email>', 'the address to invite; only an account of that address can accept')
    .addOption(new Option('--role <role>', `the role it gives: ${ROLES_HELP}`).argParser(workspaceRole).makeOptionMandatory())
    .addHelpText(
      'after',
      [
        '',
        'Only the link goes to stdout, so `link=$(sharedown members invite ann@example.com --role EDITOR)` works;',
        'the invitation id and expiry go to stderr. The service also mails the link when it sends mail.',
        'An ADMIN cannot invite an OWNER; a personal workspace cannot have other members (CONFLICT).',
      ].join('\n'),
    )
    .action(async (email: string, options: { role: WorkspaceRole }, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(
        session.client.POST('/api/v1/workspace/invitations', { body: { email, role: options.role } }),
      );
      if (out.json) {
        out.result(result, () => undefined);
        return;
      }
      out.line(result.url);
      out.note(out.color.dim(invitedNote(words(), result.invitation)));
    });

  members
    .command('role')
    .description("change a member's role (an ADMIN cannot make or change an OWNER; the last OWNER stays one)")
    .argument('<userId>', 'the member\'s user id (the USER ID column of "members ls")')
    .argument('<role>', `the new role: ${ROLES_HELP}`, workspaceRole)
    .action(async (userId: string, role: WorkspaceRole, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(
        session.client.PATCH('/api/v1/workspace/members/{userId}', { params: { path: { userId } }, body: { role } }),
      );
      out.result(result, () => out.line(roleLine(words(), result.member)));
    });

  members
    .command('rm')
    .alias('delete')
    .alias('remove')
    .description('remove a member, or with your own user id leave the workspace; what they made stays')
    .argument('<userId>', 'the member\'s user id (the USER ID column of "members ls")')
    .addHelpText(
      'after',
      [
        '',
        "From the next request on, the member's sessions no longer act in the workspace and its tokens of it answer 401.",
        'Only a new invitation brings them back. The last OWNER cannot leave or be removed (CONFLICT).',
        '--json prints { "removed": true, "userId": … } (the service answers 204 without a body).',
      ].join('\n'),
    )
    .action(async (userId: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      await session.call(session.client.DELETE('/api/v1/workspace/members/{userId}', { params: { path: { userId } } }));
      out.result({ removed: true, userId }, () => out.line(removedLine(words(), userId)));
    });

  const invitations = program
    .command('invitations')
    .description('the pending invitations of the workspace the token acts in: list, revoke (OWNER and ADMIN)');

  invitations
    .command('ls')
    .alias('list')
    .description('list the pending invitations (not accepted, revoked or expired), newest first')
    .action(async (_options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.GET('/api/v1/workspace/invitations'));
      out.result(result, () => printInvitationTable(out, words(), result.invitations));
    });

  invitations
    .command('revoke')
    .description('revoke a pending invitation: its link no longer accepts')
    .argument('<id>', 'invitation id (the ID column of "invitations ls")')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(
        session.client.DELETE('/api/v1/workspace/invitations/{id}', { params: { path: { id } } }),
      );
      out.result(result, () => out.line(revokedLine(words(), result.invitation)));
    });
}

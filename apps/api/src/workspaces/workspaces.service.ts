import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditAction } from '../audit/audit-action.js';
import { AuditLog } from '../audit/audit-log.js';
import type { AuthContext, AuthUser, WorkspaceRole } from '../auth/auth-context.js';
import { AppError, ErrorCode } from '../common/app-error.js';
import { pageOf, pageRequestOf } from '../common/page-cursor.js';
import { RUNTIME, type Runtime } from '../common/runtime.js';
import { isUniqueViolation } from '../files/files.service.js';
import { MailQueue } from '../mail/mail-queue.js';
import {
  INVITATION_DAYS,
  type CreateInvitationDto,
  type CreateWorkspaceDto,
  type CreatedInvitationDto,
  type InvitationDto,
  type InvitationListDto,
  type InvitationPreviewDto,
  type MemberDto,
  type MemberListDto,
  type WorkspaceDto,
  type WorkspaceListDto,
} from './workspace.dto.js';
import { MEMBERS_CURSOR, WorkspacesRepository, type InvitationRow, type MemberRow } from './workspaces.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MANAGERS: readonly WorkspaceRole[] = ['OWNER', 'ADMIN'];
const MEMBER_PAGE = 50;

function toMemberDto(member: MemberRow): MemberDto {
  return { userId: member.userId, email: member.email, role: member.role, joinedAt: member.joinedAt.toISOString() };
}

function toInvitationDto(invitation: InvitationRow): InvitationDto {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function personalOnly(): AppError {
  return new AppError(ErrorCode.CONFLICT, '个人工作区没有其他成员：请在共享工作区中邀请成员');
}

function lastOwner(): AppError {
  return new AppError(ErrorCode.CONFLICT, '工作区必须至少保留一名所有者（OWNER）');
}

/**
 * Workspaces: the one the caller acts in (the token's, or the console tab's), its members and its
 * invitations, and the console's own list, creation, renaming and deletion of shared workspaces.
 * Roles: OWNER everything; ADMIN members and invitations (not owners) and webhooks; EDITOR and
 * VIEWER read the members. A workspace always keeps an OWNER: every change of roles or members
 * locks the workspace's row first, so two owners demoting each other at once leave one.
 */
@Injectable()
export class WorkspacesService {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesRepository,
    private readonly audit: AuditLog,
    private readonly mail: MailQueue,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  /** The workspace the call acts in. */
  async current(auth: AuthContext): Promise<WorkspaceDto> {
    if (auth.user.id === auth.actor.id) return this.personal(auth.actor);
    const found = await this.workspaces.find(auth.user.id);
    if (!found) throw AppError.notFound('工作区不存在');
    return { ...found, personal: false, role: auth.role };
  }

  /** The console's switcher: the personal workspace first, then the shared ones by name. */
  async mine(actor: AuthUser): Promise<WorkspaceListDto> {
    const shared = await this.workspaces.ofMember(actor.id);
    return { workspaces: [this.personal(actor), ...shared.map((row) => ({ ...row, personal: false }))] };
  }

  async create(actor: AuthUser, input: CreateWorkspaceDto): Promise<WorkspaceDto> {
    const name = input.name.normalize('NFC').trim();
    if (!name) throw AppError.validation('name 不能为空', 'name');
    try {
      const id = await this.db.transaction(async (manager) => {
        const created = await this.workspaces.insert(manager, {
          name,
          segment: input.segment,
          quotaBytes: this.runtime.env.DEFAULT_QUOTA_BYTES,
        });
        await this.workspaces.addMember(manager, created, actor.id, 'OWNER');
        await this.audit.within(manager, {
          userId: created,
          actorId: actor.id,
          action: AuditAction.workspaceCreated,
          targetId: created,
          details: { name, segment: input.segment },
        });
        return created;
      });
      return { ...(await this.workspaces.find(id))!, personal: false, role: 'OWNER' };
    } catch (error) {
      if (isUniqueViolation(error, 'users_segment_key'))
        throw new AppError(ErrorCode.CONFLICT, `URL 段“${input.segment}”已被占用`);
      throw error;
    }
  }

  async rename(actor: AuthUser, id: string, name: string): Promise<WorkspaceDto> {
    const role = await this.roleIn(id, actor.id);
    if (role !== 'OWNER') throw new AppError(ErrorCode.FORBIDDEN, '只有所有者可以重命名工作区');
    await this.db.transaction((manager) => this.workspaces.rename(manager, id, name.normalize('NFC').trim()));
    return { ...(await this.workspaces.find(id))!, personal: false, role };
  }

  /** Deletes a shared workspace that holds no files (live or in the trash): 409 otherwise. */
  async delete(actor: AuthUser, id: string): Promise<void> {
    const role = await this.roleIn(id, actor.id);
    if (role !== 'OWNER') throw new AppError(ErrorCode.FORBIDDEN, '只有所有者可以删除工作区');
    await this.db.transaction(async (manager) => {
      await this.workspaces.lock(manager, id);
      if ((await this.workspaces.fileCount(manager, id)) > 0) {
        throw new AppError(ErrorCode.CONFLICT, '工作区中还有文件（包括回收站）：请先移走或彻底删除');
      }
      await this.workspaces.delete(manager, id);
      await this.audit.within(manager, { userId: actor.id, action: AuditAction.workspaceDeleted, targetId: id });
    });
  }

  async members(auth: AuthContext, cursor?: string): Promise<MemberListDto> {
    if (this.isPersonal(auth)) {
      return {
        members: [{ userId: auth.actor.id, email: auth.actor.email, role: 'OWNER', joinedAt: new Date(0).toISOString() }],
        nextCursor: null,
      };
    }
    const page = pageRequestOf(MEMBERS_CURSOR, { cursor }) ?? { limit: MEMBER_PAGE, after: null };
    const rows = await this.workspaces.members(auth.user.id, MEMBER_PAGE + 1, page.after);
    const shown = pageOf(rows, MEMBER_PAGE, MEMBERS_CURSOR, (row) => ({ email: row.email, userId: row.userId }));
    return { members: shown.rows.map(toMemberDto), nextCursor: shown.nextCursor };
  }

  /** OWNER: any role; ADMIN: not to or from OWNER. The last owner keeps the role. */
  async setRole(auth: AuthContext, userId: string, role: WorkspaceRole): Promise<MemberDto> {
    if (this.isPersonal(auth)) throw personalOnly();
    if (!UUID.test(userId)) throw AppError.notFound('成员不存在');
    // The caller's role is judged inside the lock, with the workspace as it is then.
    const member = await this.db.transaction(async (manager) => {
      const workspaceId = auth.user.id;
      await this.workspaces.lock(manager, workspaceId);
      const me = await this.workspaces.member(manager, workspaceId, auth.actor.id);
      const target = await this.workspaces.member(manager, workspaceId, userId);
      if (!target) throw AppError.notFound('成员不存在');
      // Judged first: of two owners demoting each other at once, the second finds the first the last owner.
      if (target.role === 'OWNER' && role !== 'OWNER' && (await this.workspaces.ownerCount(manager, workspaceId)) <= 1) {
        throw lastOwner();
      }
      if (!me || !MANAGERS.includes(me.role)) throw new AppError(ErrorCode.FORBIDDEN, '只有所有者和管理员可以管理成员');
      if (me.role !== 'OWNER' && (target.role === 'OWNER' || role === 'OWNER')) {
        throw new AppError(ErrorCode.FORBIDDEN, '只有所有者可以管理所有者');
      }
      await this.workspaces.setRole(manager, workspaceId, userId, role);
      await this.audit.within(manager, {
        userId: workspaceId,
        actorId: auth.actor.id,
        action: AuditAction.workspaceRoleChanged,
        targetId: userId,
        details: { email: target.email, from: target.role, to: role },
      });
      return { ...target, role };
    });
    return toMemberDto(member);
  }

  /** Removes a member (OWNER/ADMIN; not an owner unless OWNER), or, the caller's own id, leaves. */
  async remove(auth: AuthContext, userId: string): Promise<void> {
    if (this.isPersonal(auth)) throw personalOnly();
    if (!UUID.test(userId)) throw AppError.notFound('成员不存在');
    const leaving = userId === auth.actor.id;
    await this.db.transaction(async (manager) => {
      const workspaceId = auth.user.id;
      await this.workspaces.lock(manager, workspaceId);
      const me = await this.workspaces.member(manager, workspaceId, auth.actor.id);
      if (!me) throw AppError.notFound('工作区不存在');
      const target = leaving ? me : await this.workspaces.member(manager, workspaceId, userId);
      if (!target) throw AppError.notFound('成员不存在');
      if (!leaving && (!MANAGERS.includes(me.role) || (target.role === 'OWNER' && me.role !== 'OWNER'))) {
        throw new AppError(
          ErrorCode.FORBIDDEN,
          me.role === 'ADMIN' ? '只有所有者可以移除所有者' : '只有所有者和管理员可以移除成员',
        );
      }
      if (target.role === 'OWNER' && (await this.workspaces.ownerCount(manager, workspaceId)) <= 1) throw lastOwner();
      await this.workspaces.removeMember(manager, workspaceId, userId);
      await this.audit.within(manager, {
        userId: workspaceId,
        actorId: auth.actor.id,
        action: leaving ? AuditAction.workspaceLeft : AuditAction.workspaceMemberRemoved,
        targetId: userId,
        details: { email: target.email, role: target.role },
      });
    });
  }

  async invite(auth: AuthContext, input: CreateInvitationDto): Promise<CreatedInvitationDto> {
    if (this.isPersonal(auth)) throw personalOnly();
    this.mustManage(auth);
    if (input.role === 'OWNER' && auth.role !== 'OWNER') throw new AppError(ErrorCode.FORBIDDEN, '只有所有者可以邀请所有者');
    const secret = randomBytes(24).toString('base64url');
    const email = input.email.trim().toLowerCase();
    const invitation = await this.db.transaction(async (manager) => {
      const created = await this.workspaces.insertInvitation(manager, {
        workspaceId: auth.user.id,
        email,
        role: input.role,
        tokenHash: hashOf(secret),
        invitedBy: auth.actor.id,
        days: INVITATION_DAYS,
      });
      await this.audit.within(manager, {
        userId: auth.user.id,
        actorId: auth.actor.id,
        action: AuditAction.workspaceInvited,
        targetId: created.id,
        details: { email, role: input.role },
      });
      return created;
    });
    const url = `${this.runtime.env.PUBLIC_URL}/invitations/${secret}`;
    const workspace = await this.workspaces.find(auth.user.id);
    await this.mail.enqueueInvitation(email, {
      workspaceName: workspace?.name ?? '',
      inviter: auth.actor.email,
      url,
      role: input.role,
    });
    return { invitation: toInvitationDto(invitation), url };
  }

  async invitations(auth: AuthContext): Promise<InvitationListDto> {
    if (this.isPersonal(auth)) return { invitations: [], nextCursor: null };
    this.mustManage(auth);
    const rows = await this.workspaces.pendingInvitations(auth.user.id, 200, null);
    return { invitations: rows.map(toInvitationDto), nextCursor: null };
  }

  async revokeInvitation(auth: AuthContext, id: string): Promise<InvitationDto> {
    if (this.isPersonal(auth) || !UUID.test(id)) throw AppError.notFound('邀请不存在');
    this.mustManage(auth);
    const revoked = await this.db.transaction(async (manager) => {
      const row = await this.workspaces.revokeInvitation(manager, auth.user.id, id);
      if (row) {
        await this.audit.within(manager, {
          userId: auth.user.id,
          actorId: auth.actor.id,
          action: AuditAction.workspaceInvitationRevoked,
          targetId: id,
          details: { email: row.email },
        });
      }
      return row;
    });
    if (!revoked) throw AppError.notFound('邀请不存在');
    return toInvitationDto(revoked);
  }

  /** What an invitation's link shows; any other secret is not found. */
  async preview(secret: string): Promise<InvitationPreviewDto> {
    const found = secret.length <= 64 ? await this.workspaces.invitationByHash(hashOf(secret)) : null;
    if (!found || !found.usable) throw AppError.notFound('邀请不存在、已使用或已过期');
    return { workspaceName: found.workspaceName, role: found.role, email: found.email, expiresAt: found.expiresAt.toISOString() };
  }

  /**
   * Accepts an invitation as the signed-in account whose address it names (proven, when this
   * instance can prove addresses): single use, so of parallel acceptances one makes the membership.
   */
  async accept(actor: AuthUser, secret: string): Promise<WorkspaceDto> {
    const found = secret.length <= 64 ? await this.workspaces.invitationByHash(hashOf(secret)) : null;
    if (found?.accepted) throw new AppError(ErrorCode.CONFLICT, '此邀请已被使用');
    if (!found || !found.usable) throw AppError.notFound('邀请不存在、已撤销或已过期');
    if (actor.email.toLowerCase() !== found.email.toLowerCase()) {
      throw new AppError(ErrorCode.FORBIDDEN, '此邀请发给了另一个电子邮件地址：请用该地址的账户登录后接受');
    }
    const canProve = Boolean(this.runtime.env.SMTP_URL || this.runtime.env.OIDC_ISSUER_URL);
    if (canProve && !actor.emailVerified) throw new AppError(ErrorCode.FORBIDDEN, '请先验证你的电子邮件地址，再接受邀请');
    await this.db.transaction(async (manager: EntityManager) => {
      await this.workspaces.lock(manager, found.workspaceId);
      if (!(await this.workspaces.useInvitation(manager, found.id, actor.id))) {
        throw new AppError(ErrorCode.CONFLICT, '此邀请已被使用');
      }
      await this.workspaces.addMember(manager, found.workspaceId, actor.id, found.role);
      await this.audit.within(manager, {
        userId: found.workspaceId,
        actorId: actor.id,
        action: AuditAction.workspaceJoined,
        targetId: actor.id,
        details: { email: actor.email, role: found.role },
      });
    });
    const role = (await this.roleIn(found.workspaceId, actor.id)) ?? found.role;
    return { ...(await this.workspaces.find(found.workspaceId))!, personal: false, role };
  }

  /** The shared workspaces whose only owner this account is while others remain (blocks deleting it). */
  soleOwnerOf(userId: string): Promise<Array<{ id: string; name: string }>> {
    return this.workspaces.soleOwnerOf(userId);
  }

  private personal(actor: AuthUser): WorkspaceDto {
    return {
      id: actor.id,
      name: actor.email,
      segment: actor.segment,
      personal: true,
      role: 'OWNER',
      quotaBytes: actor.quotaBytes,
      usedBytes: actor.usedBytes,
      memberCount: 1,
    };
  }

  private isPersonal(auth: AuthContext): boolean {
    return auth.user.id === auth.actor.id;
  }

  private mustManage(auth: AuthContext): void {
    if (!MANAGERS.includes(auth.role)) throw new AppError(ErrorCode.FORBIDDEN, '只有所有者和管理员可以管理成员和邀请');
  }

  private async roleIn(workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
    if (!UUID.test(workspaceId)) throw AppError.notFound('工作区不存在');
    const member = await this.workspaces.member(this.db.manager, workspaceId, userId);
    if (!member) throw AppError.notFound('工作区不存在');
    return member.role;
  }
}

import { hostOf, htmlOf, textOf, type MailMessage, type Part } from './mail-messages.js';

/** An invitation to a workspace, in Chinese then English, as every mail of the service: who invites, to what, as what, and the link. */
export function invitationMessage(
  invitation: { workspaceName: string; inviter: string; role: string; url: string },
  publicUrl: string,
): MailMessage {
  const { workspaceName, inviter, role, url } = invitation;
  const parts: Part[] = [
    {
      lead: `${inviter} 邀请你以 ${role} 身份加入工作区「${workspaceName}」。用这个电子邮件地址的账户登录后打开链接即可接受（7 天内有效，只能使用一次）：`,
      rest: [url],
    },
    {
      lead: `${inviter} invites you to the workspace "${workspaceName}" as ${role}. Sign in with an account of this address and open the link to accept (valid for 7 days, once):`,
      rest: [url],
    },
  ];
  return {
    subject: `工作区邀请 / Workspace invitation: ${workspaceName} · ${hostOf(publicUrl)}`,
    text: textOf(parts),
    html: htmlOf(parts),
  };
}

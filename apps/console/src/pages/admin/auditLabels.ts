type Translate = (key: string) => string;
type Exists = (key: string) => boolean;

/**
 * An audit action in words: the Activity page's labels, then the Admin area's for administrator
 * actions (`admin.user_disabled` → `admin.actions.admin_user_disabled`), else the action's name.
 */
export function auditActionLabel(action: string, t: Translate, te: Exists): string {
  const key = action.replace('.', '_');
  if (te(`activity.actions.${key}`)) return t(`activity.actions.${key}`);
  if (te(`admin.actions.${key}`)) return t(`admin.actions.${key}`);
  return action;
}

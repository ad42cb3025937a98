import { createRouter, createWebHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router';
import type { Pinia } from 'pinia';
import { useSessionStore } from '../stores/session';
import { leaveTo } from './leave';

declare module 'vue-router' {
  interface RouteMeta {
    /** Reachable without a session (sign-in pages). */
    public?: boolean;
    /** i18n key of the page title. */
    title?: string;
    /** Only for administrators (the Admin area); others are sent to their files. */
    admin?: boolean;
  }
}

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: { name: 'file-list' } },
  {
    path: '/login',
    name: 'login',
    component: () => import('../pages/auth/LoginPage.vue'),
    meta: { public: true, title: 'auth.loginTitle' },
  },
  {
    path: '/register',
    name: 'register',
    component: () => import('../pages/auth/RegisterPage.vue'),
    meta: { public: true, title: 'auth.registerTitle' },
  },
  { path: '/files', name: 'file-list', component: () => import('../pages/files/FileBrowser.vue'), meta: { title: 'nav.files' } },
  {
    path: '/files/:id',
    name: 'file-detail',
    component: () => import('../pages/files/FileDetail.vue'),
    props: true,
    meta: { title: 'nav.files' },
  },
  { path: '/trash', name: 'trash-list', component: () => import('../pages/trash/TrashPage.vue'), meta: { title: 'nav.trash' } },
  {
    path: '/shares',
    name: 'share-list',
    component: () => import('../pages/shares/ShareList.vue'),
    meta: { title: 'nav.shares' },
  },
  {
    path: '/shares/new',
    name: 'share-create',
    component: () => import('../pages/shares/ShareCreate.vue'),
    meta: { title: 'share.createTitle' },
  },
  {
    path: '/shares/:id',
    name: 'share-detail',
    component: () => import('../pages/shares/ShareDetail.vue'),
    props: true,
    meta: { title: 'nav.shares' },
  },
  {
    path: '/shares/:id/analytics',
    name: 'share-analytics',
    component: () => import('../pages/shares/ShareAnalytics.vue'),
    props: true,
    meta: { title: 'shareAnalytics.title' },
  },
  {
    path: '/requests',
    name: 'request-list',
    component: () => import('../pages/requests/RequestList.vue'),
    meta: { title: 'requests.title' },
  },
  {
    path: '/requests/:id',
    name: 'request-detail',
    component: () => import('../pages/requests/RequestDetail.vue'),
    meta: { title: 'requests.title' },
  },
  {
    path: '/validate',
    name: 'validate',
    component: () => import('../pages/validate/ValidatePage.vue'),
    meta: { title: 'nav.validate' },
  },
  {
    path: '/tokens',
    name: 'token-list',
    component: () => import('../pages/tokens/TokenList.vue'),
    meta: { title: 'nav.tokens' },
  },
  {
    path: '/webhooks',
    name: 'webhook-list',
    component: () => import('../pages/webhooks/WebhookList.vue'),
    meta: { title: 'nav.webhooks' },
  },
  {
    path: '/webhooks/:id',
    name: 'webhook-detail',
    component: () => import('../pages/webhooks/WebhookDetail.vue'),
    props: true,
    meta: { title: 'nav.webhooks' },
  },
  {
    path: '/activity',
    name: 'activity',
    component: () => import('../pages/activity/ActivityPage.vue'),
    meta: { title: 'nav.activity' },
  },
  {
    path: '/workspace/members',
    name: 'workspace-members',
    component: () => import('../pages/workspace/MembersPage.vue'),
    meta: { title: 'workspaces.membersTitle' },
  },
  {
    path: '/invitations/:secret',
    name: 'invitation',
    component: () => import('../pages/workspace/InvitationPage.vue'),
    meta: { title: 'workspaces.invitationTitle' },
  },
  {
    path: '/admin',
    name: 'admin',
    component: () => import('../pages/admin/AdminOverview.vue'),
    meta: { title: 'admin.nav', admin: true },
  },
  {
    path: '/admin/users',
    name: 'admin-users',
    component: () => import('../pages/admin/AdminUsers.vue'),
    meta: { title: 'admin.tabs.users', admin: true },
  },
  {
    path: '/admin/users/:id',
    name: 'admin-user',
    component: () => import('../pages/admin/AdminUserDetail.vue'),
    props: true,
    meta: { title: 'admin.tabs.users', admin: true },
  },
  {
    path: '/admin/workspaces',
    name: 'admin-workspaces',
    component: () => import('../pages/admin/AdminWorkspaces.vue'),
    meta: { title: 'admin.tabs.workspaces', admin: true },
  },
  {
    path: '/admin/audit',
    name: 'admin-audit',
    component: () => import('../pages/admin/AdminAudit.vue'),
    meta: { title: 'admin.tabs.audit', admin: true },
  },
  {
    path: '/account',
    name: 'account',
    component: () => import('../pages/account/AccountPage.vue'),
    meta: { title: 'nav.account' },
  },
  {
    path: '/admin/reports',
    name: 'admin-reports',
    component: () => import('../pages/admin/reports/AdminReports.vue'),
    meta: { title: 'reports.title', admin: true },
  },
  {
    path: '/:pathMatch(.*)*',
    name: 'not-found',
    component: () => import('../pages/NotFoundPage.vue'),
    meta: { public: true, title: 'notFound.title' },
  },
];

/** Only same-app paths are valid return targets after login; anything else could be an open redirect. */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/login' || value.startsWith('/login?') || value === '/register') return null;
  return value;
}

/** Share links live on the server: a sign-in that came from one must reload the page, not route. */
export function isServerPath(path: string): boolean {
  return path.startsWith('/s/');
}

/** Goes back where the sign-in started: a console page through the router, a share link by loading it. */
export async function returnTo(router: Router, redirect: unknown): Promise<void> {
  const target = safeRedirect(redirect);
  if (target && isServerPath(target)) leaveTo(target);
  else await router.replace(target ?? { name: 'file-list' });
}

export function createConsoleRouter(pinia: Pinia, history: RouterHistory = createWebHistory()): Router {
  const router = createRouter({
    history,
    routes,
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  });

  router.beforeEach(async (to) => {
    const session = useSessionStore(pinia);
    try {
      await session.ensureLoaded();
    } catch {
      // The API is unreachable; protected pages show their own error state rather than a blank screen.
      return true;
    }
    if (to.meta.public) {
      if (session.signedIn && (to.name === 'login' || to.name === 'register')) {
        const target = safeRedirect(to.query.redirect);
        if (target && isServerPath(target)) {
          leaveTo(target);
          return false;
        }
        return target ?? { name: 'file-list' };
      }
      return true;
    }
    if (!session.signedIn) return { name: 'login', query: { redirect: to.fullPath } };
    // The server refuses the Admin area's calls anyway; the pages are not shown to others either.
    if (to.meta.admin && !session.user?.isAdmin) return { name: 'file-list' };
    return true;
  });

  return router;
}

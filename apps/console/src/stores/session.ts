import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { api, call, SharedownApiError } from '../api/client';
import type { ConsoleUser } from '../api/types';

export const useSessionStore = defineStore('session', () => {
  const user = ref<ConsoleUser | null>(null);
  const loaded = ref(false);
  /** Set when a call came back 401 while signed in: the login page explains why it is shown. */
  const expired = ref(false);
  let pending: Promise<void> | null = null;

  const signedIn = computed(() => user.value !== null);

  async function fetchSession(): Promise<void> {
    try {
      const data = await call(api().GET('/api/auth/session'), { quiet401: true });
      user.value = data.user;
    } catch (error) {
      // Anything but a 401 (offline, 5xx) leaves the session unknown, to be asked again.
      if (!(error instanceof SharedownApiError) || error.status !== 401) throw error;
      user.value = null;
    }
    loaded.value = true;
  }

  /** Resolves the session once per page load; concurrent navigations share the request. */
  function ensureLoaded(): Promise<void> {
    if (loaded.value) return Promise.resolve();
    pending ??= fetchSession().finally(() => (pending = null));
    return pending;
  }

  /** Re-reads usage after uploads, purges and the like. */
  async function refresh(): Promise<void> {
    await fetchSession();
  }

  /** `code`: the second factor, when a first attempt answered 401 with `twoFactorRequired`. */
  async function login(email: string, password: string, code?: string): Promise<void> {
    const body = code ? { email, password, code } : { email, password };
    const data = await call(api().POST('/api/auth/login', { body }), { quiet401: true });
    user.value = data.user;
    expired.value = false;
    loaded.value = true;
  }

  /**
   * Signed in at once, or (e-mail configured) `verificationRequired`: a code was mailed, and
   * POST /api/auth/verify-email with it signs in. `invite`: the token of an invitation link.
   */
  async function register(email: string, password: string, invite?: string): Promise<{ verificationRequired: boolean }> {
    const data = await call(
      api().POST('/api/auth/register', { body: invite ? { email, password, invite } : { email, password } }),
    );
    if (!data.user) return { verificationRequired: true };
    adopt(data.user);
    return { verificationRequired: false };
  }

  /** The account an e-mail code flow signed in to, or the signed-in one after a change. */
  function adopt(next: ConsoleUser): void {
    user.value = next;
    expired.value = false;
    loaded.value = true;
  }

  async function logout(): Promise<void> {
    try {
      await call(api().POST('/api/auth/logout'), { quiet401: true });
    } catch (error) {
      // An already expired session is logged out anyway.
      if (!(error instanceof SharedownApiError) || error.status !== 401) throw error;
    }
    user.value = null;
    expired.value = false;
  }

  async function updateSegment(segment: string): Promise<void> {
    const data = await call(api().PATCH('/api/console/account', { body: { segment } }));
    user.value = data.user;
  }

  function markExpired(): void {
    if (user.value) expired.value = true;
    user.value = null;
    loaded.value = true;
  }

  return { user, loaded, expired, signedIn, ensureLoaded, refresh, login, register, adopt, logout, updateSegment, markExpired };
});

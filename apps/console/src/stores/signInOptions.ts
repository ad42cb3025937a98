import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Schemas } from '@sharedown/contract';
import { api, call } from '../api/client';

export type SignInOptions = Schemas['SignInOptionsDto'];

/** What an instance offers when it cannot be asked: the password form, as before any option existed. */
const FALLBACK: SignInOptions = {
  passwordLogin: true,
  registration: true,
  registrationMode: 'open',
  emailCodes: false,
  oidcLabel: null,
  oidcRedirectUri: '',
};

/** The instance's sign-in choices (GET /api/auth/options), read once per page load. */
export const useSignInOptionsStore = defineStore('signInOptions', () => {
  const options = ref<SignInOptions>(FALLBACK);
  const loaded = ref(false);
  let pending: Promise<void> | null = null;

  function ensureLoaded(): Promise<void> {
    if (loaded.value) return Promise.resolve();
    pending ??= call(api().GET('/api/auth/options'))
      .then((data) => {
        options.value = data;
        loaded.value = true;
      })
      // Unreachable now: keep the fallback, and ask again on the next page that needs it.
      .catch(() => undefined)
      .finally(() => (pending = null));
    return pending;
  }

  return { options, loaded, ensureLoaded };
});

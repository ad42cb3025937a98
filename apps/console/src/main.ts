import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { onUnauthenticated } from './api/client';
import { createConsoleI18n, type Locale } from './i18n';
import { createConsoleRouter } from './router';
import { useSessionStore } from './stores/session';
import { usePreferencesStore } from './stores/preferences';
import './styles/main.css';

const pinia = createPinia();
const i18n = createConsoleI18n();
const router = createConsoleRouter(pinia);
const app = createApp(App).use(pinia).use(i18n).use(router);

usePreferencesStore(pinia).applyLocale(i18n.global.locale.value as Locale, false);

// A 401 on any console call means the session ended: sign in again, then come back here.
onUnauthenticated(() => {
  const session = useSessionStore(pinia);
  const current = router.currentRoute.value;
  session.markExpired();
  if (!current.meta.public) void router.push({ name: 'login', query: { redirect: current.fullPath } });
});

router.afterEach((to) => {
  const title = to.meta.title ? i18n.global.t(to.meta.title) : '';
  document.title = title ? `${title} · Sharedown` : 'Sharedown';
});

app.mount('#app');

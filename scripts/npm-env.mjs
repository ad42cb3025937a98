// npm run-script exports its own settings to what it runs as npm_config_*, among them the project
// it ran in as local_prefix: an npm started below `npm test` or `npm run pack` would act on the
// workspace instead of its own directory. Only the settings that say how to reach the registry
// are passed on.
const REGISTRY_SETTINGS = /^npm_config_(registry|cafile|ca|proxy|https_proxy|noproxy|strict_ssl|cache|userconfig)$/i;

/** The environment for an npm of its own: this process's, without npm's run-script variables. */
export function npmEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && (!/^npm_/i.test(key) || REGISTRY_SETTINGS.test(key))) env[key] = value;
  }
  return { ...env, ...extra };
}

import { readFileSync } from 'node:fs';

interface PackageInfo {
  name: string;
  version: string;
}

/** The package's own name and version, read once from package.json beside `dist/` and `src/`. */
export const packageInfo: PackageInfo = (() => {
  const raw = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageInfo;
  return { name: raw.name, version: raw.version };
})();

// Writes installable tarballs of the clients (@sharedown/cli, @sharedown/mcp, @sharedown/client)
// from the built workspace: `npm run pack` (which builds first), or `node scripts/pack.mjs [--out dir]`
// on a built tree. Each package is staged in a temporary directory with a manifest written for a
// registry, then packed by npm itself, so the tarball holds exactly what `npm publish` would send.
//
// The workspace libraries (@sharedown/contract, @sharedown/i18n) are no registry packages: the
// staged cli and mcp carry their built copies as bundled dependencies, and the libraries' own npm
// dependencies become dependencies of the staged package. Each tarball then installs on its own
// with plain npm and nothing but the registry.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { npmEnv } from './npm-env.mjs';

const root = join(import.meta.dirname, '..');
const { values: options } = parseArgs({ options: { out: { type: 'string', default: join(root, 'packages-out') } } });
const out = resolve(options.out);

// The repository's licence: every tarball, and every library bundled inside one, carries its text.
const LICENSE = 'Apache-2.0';
const LICENSE_FILE = join(root, 'LICENSE');
const KEYWORDS = ['sharedown', 'share links', 'documents', 'markdown', 'html'];

/** What is published, from which workspace package, with what a registry shows of it. */
const PACKAGES = [
  {
    dir: 'libs/contract',
    name: '@sharedown/client',
    description:
      'Typed client of the Sharedown REST API (openapi-fetch), generated from its OpenAPI 3.1 document, which it includes as @sharedown/client/openapi.json',
    keywords: [...KEYWORDS, 'openapi', 'api client', 'typescript'],
    files: ['dist', 'openapi.json'],
    readme: 'client.md',
  },
  {
    dir: 'apps/cli',
    name: '@sharedown/cli',
    description: 'sharedown: upload, share, revoke and track documents on a Sharedown service from a shell',
    keywords: [...KEYWORDS, 'cli'],
    files: ['dist'],
    readme: 'cli.md',
  },
  {
    dir: 'apps/mcp',
    name: '@sharedown/mcp',
    description: 'sharedown-mcp: a Model Context Protocol tool server (stdio and streamable HTTP) for a Sharedown service',
    keywords: [...KEYWORDS, 'mcp', 'model context protocol', 'mcp server'],
    files: ['dist'],
    readme: 'mcp.md',
  },
];

/** The workspace libraries a staged package may bundle, and the files each needs at run time. */
const LIBRARIES = {
  '@sharedown/contract': { dir: 'libs/contract', files: ['dist', 'openapi.json'] },
  '@sharedown/i18n': { dir: 'libs/i18n', files: ['dist'] },
};

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

/**
 * The repository field names the clone's origin when it has one; a made-up address would send
 * people somewhere that is not this code.
 */
function repositoryOf(dir) {
  const probe = spawnSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8' });
  const url = probe.status === 0 ? probe.stdout.trim() : '';
  return url ? { type: 'git', url: url.startsWith('git+') ? url : `git+${url}`, directory: dir } : undefined;
}

/**
 * Copies a package's built output. Only what its sources build travels: dist is never cleaned, so
 * a module deleted from src can leave a stale file there, and source maps point at sources that
 * are not shipped.
 */
function copyBuilt(packageDir, files, target) {
  for (const entry of files) {
    const source = join(packageDir, entry);
    if (!existsSync(source)) fail(`${relative(root, source)} is missing: build the workspace first (npm run pack builds it)`);
    if (entry !== 'dist') {
      mkdirSync(dirname(join(target, entry)), { recursive: true });
      copyFileSync(source, join(target, entry));
      continue;
    }
    for (const file of readdirSync(source, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const path = relative(source, join(file.parentPath, file.name));
      const built = /^(.*?)(\.d\.ts|\.js)$/.exec(path);
      if (!built || !existsSync(join(packageDir, 'src', `${built[1]}.ts`))) continue;
      const destination = join(target, 'dist', path);
      mkdirSync(dirname(destination), { recursive: true });
      const text = readFileSync(join(source, path), 'utf8');
      writeFileSync(destination, text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
    }
    if (!existsSync(join(target, 'dist'))) fail(`${relative(root, source)} holds no build of ${relative(root, packageDir)}/src`);
  }
}

/** Adds an npm dependency; two packages asking for different ranges of one name is a decision for a person. */
function addDependency(dependencies, name, range, wantedBy) {
  if (dependencies[name] && dependencies[name] !== range) {
    fail(`${wantedBy} needs ${name}@${range}, another bundled package ${name}@${dependencies[name]}: align the ranges`);
  }
  dependencies[name] = range;
}

/** Exported paths of a manifest, without the workspace-only fields. */
function runtimeFields(manifest) {
  const fields = {};
  for (const key of ['type', 'main', 'types', 'exports']) if (manifest[key] !== undefined) fields[key] = manifest[key];
  return fields;
}

/** Copies a workspace library into the staged package's node_modules, and its npm dependencies into `dependencies`. */
function bundle(name, stageDir, dependencies, bundled) {
  if (bundled.includes(name)) return;
  const library = LIBRARIES[name];
  if (!library) fail(`${name} is a workspace package this script does not know how to bundle`);
  bundled.push(name);
  const manifest = readJson(join(root, library.dir, 'package.json'));
  const target = join(stageDir, 'node_modules', name);
  copyBuilt(join(root, library.dir), library.files, target);
  copyFileSync(LICENSE_FILE, join(target, 'LICENSE'));
  const own = {};
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:')) {
      bundle(dependency, stageDir, dependencies, bundled);
      own[dependency] = readJson(join(root, LIBRARIES[dependency].dir, 'package.json')).version;
    } else {
      addDependency(dependencies, dependency, range, name);
      own[dependency] = range;
    }
  }
  const staged = {
    name,
    version: manifest.version,
    description: manifest.description,
    license: LICENSE,
    ...runtimeFields(manifest),
    engines: manifest.engines,
    dependencies: own,
  };
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
}

function sorted(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

function stage(spec, stageDir) {
  const packageDir = join(root, spec.dir);
  const source = readJson(join(packageDir, 'package.json'));
  copyBuilt(packageDir, spec.files, stageDir);
  copyFileSync(join(import.meta.dirname, 'package-readmes', spec.readme), join(stageDir, 'README.md'));
  copyFileSync(LICENSE_FILE, join(stageDir, 'LICENSE'));

  const dependencies = {};
  const bundled = [];
  for (const [name, range] of Object.entries(source.dependencies ?? {})) {
    if (range.startsWith('workspace:')) {
      bundle(name, stageDir, dependencies, bundled);
      dependencies[name] = readJson(join(root, LIBRARIES[name].dir, 'package.json')).version;
    } else {
      addDependency(dependencies, name, range, spec.name);
    }
  }
  // The cli only runs: nothing in it is meant to be imported.
  const runtime = runtimeFields(source);
  if (!runtime.exports) runtime.exports = { './package.json': './package.json' };
  const manifest = {
    name: spec.name,
    version: source.version,
    description: spec.description,
    keywords: spec.keywords,
    license: LICENSE,
    repository: repositoryOf(spec.dir),
    ...runtime,
    bin: source.bin,
    files: spec.files,
    engines: source.engines,
    dependencies: sorted(dependencies),
    bundleDependencies: bundled.length ? bundled.sort() : undefined,
  };
  if (!manifest.engines?.node) fail(`${spec.dir}/package.json has no engines.node`);
  writeFileSync(join(stageDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

mkdirSync(out, { recursive: true });
const staging = mkdtempSync(join(tmpdir(), 'sharedown-pack-'));
try {
  for (const spec of PACKAGES) {
    const stageDir = join(staging, spec.name.replace('/', '__'));
    mkdirSync(stageDir);
    stage(spec, stageDir);
    // --ignore-scripts: the staged manifest has none, and a user's npm config must not add any.
    const result = execFileSync('npm', ['pack', stageDir, '--json', '--ignore-scripts', '--pack-destination', out], {
      cwd: stageDir,
      encoding: 'utf8',
      env: npmEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [packed] = JSON.parse(result);
    const shown = relative(process.cwd(), out);
    console.log(
      `${join(shown.startsWith('..') ? out : shown || '.', packed.filename)}  ${packed.entryCount} files, ${Math.round(packed.size / 1024)} KiB`,
    );
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}

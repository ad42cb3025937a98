import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '../config/env.js';
import { createApp } from '../http/create-app.js';
import { buildOpenApiDocument } from './openapi.js';

/** Writes the OpenAPI document into libs/contract without a database (Nest preview mode). */
async function main(): Promise<void> {
  const runtime = { env: loadEnv({}), databaseUrl: 'postgres://preview/preview', sessionSecret: 'x'.repeat(32) };
  const app = await createApp(runtime, { preview: true });
  const document = buildOpenApiDocument(app);
  const target = fileURLToPath(new URL('../../../../libs/contract/openapi.json', import.meta.url));
  await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  console.log(`wrote ${target}`);
}

void main();

// Resident memory of the api process: idle after start-up, and its peak under the share
// view load (50 connections, uncapped 20 KB Markdown share), from /proc in the same run.
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createUser, printTable, rssMiB, startApi } from './support.mjs';
import { markdownOf } from './view.mjs';

async function shareMarkdown(baseUrl, token) {
  const form = new FormData();
  form.append('file', new Blob([markdownOf()], { type: 'text/markdown' }), 'memory.md');
  form.append('share', '{}');
  const uploaded = await (await fetch(`${baseUrl}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json();
  for (let i = 0; i < 200; i++) {
    const file = await (await fetch(`${baseUrl}/api/v1/files/${uploaded.file.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    if (file.scanStatus === 'CLEAN') return uploaded.url;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('file never became CLEAN');
}

export async function run() {
  const api = await startApi();
  try {
    const user = await createUser(api.baseUrl);
    const url = await shareMarkdown(api.baseUrl, user.token);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idle = await rssMiB(api.pid);
    const samples = [];
    const sampler = setInterval(() => void rssMiB(api.pid).then((value) => samples.push(value)), 500);
    await autocannon({ url, connections: 50, duration: 15 });
    clearInterval(sampler);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const settled = await rssMiB(api.pid);
    const rows = [
      { state: 'idle after start-up', 'RSS MiB': idle, 'ratio to idle': '1.00' },
      { state: 'peak under view load (50 conns, 15 s)', 'RSS MiB': Math.max(...samples), 'ratio to idle': (Math.max(...samples) / idle).toFixed(2) },
      { state: '5 s after the load', 'RSS MiB': settled, 'ratio to idle': (settled / idle).toFixed(2) },
    ];
    printTable('api process memory (RSS)', rows);
    return rows;
  } finally {
    await api.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();

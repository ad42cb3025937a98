import { Option, type Command } from 'commander';
import type { CommandContext } from '../context.js';
import { closedLine, printRequest, printRequestTable, printUploadTable, reviewLine } from '../format-requests.js';
import { messageLocale } from '../language.js';
import { wordsOf, type Words } from '../messages.js';
import { addPageOptions, readPages, type PageOptions } from '../pages.js';
import { qrCodeOf } from '../qr.js';
import { addRequestOptions, requestInputOf, requestState, type RequestFlags, type RequestState } from '../request-options.js';
import type { Session } from '../session.js';

type Decision = 'accept' | 'reject';

async function review(session: Session, requestId: string, uploadId: string, decision: Decision) {
  const params = { path: { id: requestId, uploadId } };
  return decision === 'accept'
    ? session.call(session.client.POST('/api/v1/requests/{id}/uploads/{uploadId}/accept', { params }))
    : session.call(session.client.POST('/api/v1/requests/{id}/uploads/{uploadId}/reject', { params }));
}

export function registerRequestsCommands(program: Command, context: CommandContext): void {
  const words = (): Words => wordsOf(messageLocale(context.io.env));
  const requests = program
    .command('requests')
    .description('document requests: a link through which others upload documents to you, scanned and held for your review');

  addRequestOptions(
    requests
      .command('create')
      .description('create a document request and print its link (and, on a terminal, a QR code of it)')
      .argument('[title]', 'what you ask for, shown on the upload page (or --title)'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Only the link goes to stdout (then, when stdout is a terminal, its QR code); the request id goes to stderr.',
        'Each upload takes a slot, is scanned for malware and waits for your review: "requests uploads", "requests accept".',
        'Examples: sharedown requests create "Signed policies" --max-uploads 3 --expires-in-days 14',
        '          sharedown requests create --title "Cover letter" --allow ann@example.com --password hunter22',
      ].join('\n'),
    )
    .action(async (title: string | undefined, options: RequestFlags, command: Command) => {
      const out = context.output(command);
      const body = requestInputOf(title, options);
      const session = await context.session();
      const result = await session.call(session.client.POST('/api/v1/requests', { body }));
      if (out.json) {
        out.result(result, () => undefined);
        return;
      }
      const said = words();
      // Only the link goes to stdout, so `url=$(sharedown requests create …)` works.
      out.line(result.url);
      if (context.io.stdout.isTTY) {
        out.line();
        out.line(out.color.dim(said.messages.requests.qrCaption));
        out.line(await qrCodeOf(result.url, out.color.isColorSupported));
      }
      out.note(
        out.color.dim(
          said.format(said.messages.requests.createdNote, {
            id: result.request.id,
            max: result.request.maxUploads,
            folder: result.request.folderId,
          }),
        ),
      );
    });

  addPageOptions(
    requests
      .command('ls')
      .alias('list')
      .description('list your document requests, newest first, with their state and the slots taken')
      .addOption(
        new Option('--state <state>', 'only requests in this state: OPEN, CLOSED, EXPIRED or FULL').argParser(requestState),
      ),
    'requests',
  ).action(async (options: { state?: RequestState } & PageOptions, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const read = await readPages(options, async (limit, cursor) => {
      const page = await session.call(
        session.client.GET('/api/v1/requests', {
          params: { query: { ...(options.state ? { state: options.state } : {}), limit, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: page.requests, nextCursor: page.nextCursor };
    });
    const result =
      read.nextCursor === undefined ? { requests: read.items } : { requests: read.items, nextCursor: read.nextCursor };
    const said = words();
    out.result(result, () => printRequestTable(out, said, result.requests));
    if (read.nextCursor) out.note(said.format(said.messages.requests.moreRequests, { cursor: read.nextCursor }));
  });

  requests
    .command('show')
    .alias('get')
    .description('show one document request: its link, limits, state and slots taken')
    .argument('<id>', 'request id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.GET('/api/v1/requests/{id}', { params: { path: { id } } }));
      out.result(result, () => printRequest(out, words(), result.request));
    });

  requests
    .command('close')
    .description('close a document request: its page stops taking uploads, for good; what it received stays')
    .argument('<id>', 'request id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const out = context.output(command);
      const session = await context.session();
      const result = await session.call(session.client.DELETE('/api/v1/requests/{id}', { params: { path: { id } } }));
      out.result(result, () => out.line(closedLine(words(), result.request)));
    });

  addPageOptions(
    requests
      .command('uploads')
      .description(
        'list what a document request received, newest first: file, size, scan, your review, who sent it and their message',
      )
      .argument('<requestId>', 'request id'),
    'uploads',
  ).action(async (requestId: string, options: PageOptions, command: Command) => {
    const out = context.output(command);
    const session = await context.session();
    const read = await readPages(options, async (limit, cursor) => {
      const page = await session.call(
        session.client.GET('/api/v1/requests/{id}/uploads', {
          params: { path: { id: requestId }, query: { limit, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: page.uploads, nextCursor: page.nextCursor };
    });
    const result = read.nextCursor === undefined ? { uploads: read.items } : { uploads: read.items, nextCursor: read.nextCursor };
    const said = words();
    out.result(result, () => printUploadTable(out, said, result.uploads));
    if (read.nextCursor) out.note(said.format(said.messages.requests.moreUploads, { cursor: read.nextCursor }));
  });

  const decisions: [Decision, string][] = [
    ['accept', 'accept an upload: its file can then be shared like any other (once its scan is clean)'],
    ['reject', 'reject an upload: its file moves to the trash, and the upload can never be accepted'],
  ];
  for (const [decision, description] of decisions) {
    requests
      .command(decision)
      .description(description)
      .argument('<requestId>', 'request id')
      .argument('<uploadId>', 'upload id (the ID column of "requests uploads")')
      .addHelpText('after', '\nA decision is final: the same again changes nothing, the other one is a CONFLICT.')
      .action(async (requestId: string, uploadId: string, _options: unknown, command: Command) => {
        const out = context.output(command);
        const session = await context.session();
        const result = await review(session, requestId, uploadId, decision);
        out.result(result, () => out.line(reviewLine(words(), result.upload)));
      });
  }
}

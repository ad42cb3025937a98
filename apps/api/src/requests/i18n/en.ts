import type { RequestMessages } from '../request-text.js';

/** The document request pages' words in English. */
export default {
  page: {
    askedBy: '{owner} asks you to upload documents',
    received: 'Received: {taken} of {max}',
    largest: 'Largest file: {size}',
    until: 'Open until: {date}',
    kinds: 'You can upload text files (.md, .markdown, .html, .htm, .txt, .text) in UTF-8.',
  },
  form: {
    file: 'Choose a file',
    orPaste: 'Or paste text',
    text: 'Text',
    fileName: 'File name (for example notes.md)',
    name: 'Your name',
    email: 'Your e-mail address',
    emailOptional: 'Your e-mail address (optional)',
    message: 'Message (optional)',
    submit: 'Upload',
  },
  problems: {
    name: 'Please give your name (at most 100 characters).',
    email: 'Please give a valid e-mail address.',
    message: 'The message can be at most 2,000 characters long.',
    document: 'Please choose a file, or paste text and give it a file name.',
    both: 'Please either choose a file or paste text, not both.',
  },
  closed: {
    title: 'Request closed',
    body: 'The person who asked for these documents has closed the request. It takes no more uploads.',
  },
  expired: { title: 'Request expired', body: 'This document request has passed its deadline. It takes no more uploads.' },
  full: {
    title: 'Request complete',
    body: 'This document request has received every document it asked for. It takes no more uploads.',
  },
  receipt: {
    title: 'Upload receipt',
    intro: 'Keep the address of this page: it shows your own upload and nothing else.',
    request: 'Request',
    file: 'File',
    size: 'Size',
    at: 'Received at',
    status: 'Status',
    checking: 'Being checked',
    received: 'Received',
    infected: 'Rejected by the virus scanner',
    refresh: 'Reload the page to see the latest status.',
  },
} satisfies RequestMessages;

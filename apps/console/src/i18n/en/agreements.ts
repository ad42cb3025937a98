/** English messages: a share's agreement, the acceptances of it, and watermarks that name the reader. */
export default {
  agreementForm: {
    title: 'Agreement',
    toggle: 'Ask visitors to accept an agreement',
    help: 'Terms or an NDA, in Markdown. Visitors accept it after the password and sign-in, before they see anything; an acceptance holds until you change the text.',
    textLabel: 'Agreement text (Markdown)',
    placeholder: '## Confidentiality\n\nBy opening these documents you agree to keep them confidential.',
    count: '{count} / {max} characters',
    requireName: 'Reader must type their name',
    requireNameHelp:
      'They sign with a name of {min} to {max} characters; it is recorded with the acceptance and can appear in the watermark.',
    editHelp:
      'Changing the text asks every reader to accept again; switching it off removes the agreement. Earlier acceptances stay listed on this page.',
    errEmpty: 'Write the text visitors accept.',
    errLength: 'The agreement must be {min} to {max} characters long.',
    summary: 'They accept your agreement before anything is shown.',
    summaryNamed: 'They accept your agreement, signing with their name, before anything is shown.',
  },
  readerWatermark: {
    placeholders:
      'Placeholders, filled in per view: {email} the signed-in reader’s verified address, {name} the name signed on the agreement, {date} the date (UTC), {ip} the reader’s network. One with nothing to say is left out; the limit counts the text as typed.',
    errControl: 'Line breaks and other control characters cannot be drawn.',
  },
  acceptances: {
    title: 'Acceptances',
    hint: 'Who accepted the agreement, newest first. Each row names the text accepted by its digest.',
    hintRemoved: 'This link no longer asks for an agreement; the acceptances of its earlier texts remain.',
    exportCsv: 'Export CSV',
    empty: 'Nobody has accepted the agreement yet.',
    at: 'When',
    name: 'Name',
    email: 'E-mail',
    ipPrefix: 'Network',
    userAgent: 'Device',
    digest: 'Agreement digest',
    earlierText: 'earlier text',
    more: 'Load more',
  },
};

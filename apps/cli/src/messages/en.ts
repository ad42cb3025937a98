/**
 * English words of what the CLI prints for people (not its help, which stays English, nor the
 * api's errors, which @sharedown/i18n words): one catalog per language, the same keys in each.
 */
export default {
  requests: {
    columns: {
      id: 'ID',
      title: 'TITLE',
      state: 'STATE',
      uploads: 'UPLOADS',
      expires: 'EXPIRES',
      created: 'CREATED',
      file: 'FILE',
      size: 'SIZE',
      scan: 'SCAN',
      review: 'REVIEW',
      uploader: 'UPLOADER',
      message: 'MESSAGE',
      at: 'AT',
    },
    fields: {
      id: 'id',
      link: 'link',
      title: 'title',
      state: 'state',
      uploads: 'uploads',
      perUpload: 'per upload',
      expires: 'expires',
      password: 'password',
      allowlist: 'allowlist',
      notify: 'notify',
      folder: 'folder',
      instructions: 'instructions',
      created: 'created',
      closed: 'closed',
    },
    states: { OPEN: 'open', CLOSED: 'closed', EXPIRED: 'expired', FULL: 'full' },
    reviews: { PENDING: 'waiting for review', ACCEPTED: 'accepted', REJECTED: 'rejected' },
    scans: {
      PENDING: 'being scanned',
      CLEAN: 'clean',
      INFECTED: 'infected, quarantined',
      SCAN_ERROR: 'scan failed',
      purged: 'deleted for good',
    },
    values: { never: 'never', none: 'none', yes: 'yes', no: 'no', anyone: 'anyone with the link' },
    uploadCount: '{count} of {max}',
    createdNote:
      'Request {id}: {max, plural, one {one upload} other {up to # uploads}}, into folder {folder}. Follow it with: sharedown requests uploads {id}',
    qrCaption: 'Scan with a phone to open the upload page:',
    closedLine:
      'Closed request “{title}” ({id}): its page now says it is closed. {count, plural, =0 {It received no uploads.} one {The upload it received stays.} other {The # uploads it received stay.}}',
    acceptedLine: 'Accepted {file} ({id}): it can be shared like any other file once its scan is clean.',
    rejectedLine: 'Rejected {file} ({id}): the file is in the trash.',
    moreRequests: 'More requests: run again with --cursor {cursor}',
    moreUploads: 'More uploads: run again with --cursor {cursor}',
  },
};

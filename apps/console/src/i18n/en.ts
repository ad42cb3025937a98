import shell from './en/shell';
import auth from './en/auth';
import account from './en/account';
import files from './en/files';
import shares from './en/shares';
import tools from './en/tools';
import activity from './en/activity';
import notifications from './en/notifications';
import admin from './en/admin';
import reports from './en/reports';
import agreements from './en/agreements';
import collections from './en/collections';
import sections from './en/sections';
import requests from './en/requests';
import workspaces from './en/workspaces';

/** English messages, one file per area under en/; the Chinese ones mirror them key for key. */
const en = {
  ...shell,
  ...auth,
  ...account,
  ...files,
  ...shares,
  ...tools,
  ...activity,
  ...notifications,
  ...admin,
  ...reports,
  ...agreements,
  ...collections,
  ...sections,
  ...requests,
  ...workspaces,
};

export default en;
export type Messages = typeof en;

import type { Messages } from './en';
import shell from './ja/shell';
import auth from './ja/auth';
import account from './ja/account';
import files from './ja/files';
import shares from './ja/shares';
import tools from './ja/tools';
import activity from './ja/activity';
import notifications from './ja/notifications';
import admin from './ja/admin';
import reports from './ja/reports';
import agreements from './ja/agreements';
import collections from './ja/collections';
import sections from './ja/sections';
import requests from './ja/requests';
import workspaces from './ja/workspaces';

/** Japanese messages, one file per area under ja/, typed by the English ones. */
const ja: Messages = {
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

export default ja;

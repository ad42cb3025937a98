import type { Messages } from './en';
import shell from './de/shell';
import auth from './de/auth';
import account from './de/account';
import files from './de/files';
import shares from './de/shares';
import tools from './de/tools';
import activity from './de/activity';
import notifications from './de/notifications';
import admin from './de/admin';
import reports from './de/reports';
import agreements from './de/agreements';
import collections from './de/collections';
import sections from './de/sections';
import requests from './de/requests';
import workspaces from './de/workspaces';

/** German messages, one file per area under de/, typed by the English ones. */
const de: Messages = {
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

export default de;

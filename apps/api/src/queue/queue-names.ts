/** Background queues of the service. */
export const QueueName = {
  scan: 'scan',
  webhooks: 'webhooks',
  mail: 'mail',
  notifications: 'notifications',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

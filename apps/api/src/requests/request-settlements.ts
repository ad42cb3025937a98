import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MailQueue } from '../mail/mail-queue.js';
import { NotificationsRepository } from '../notifications/notifications.repository.js';
import { ScanSettlements } from '../scan/scan-settlements.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import { RequestsRepository, type SettledUpload } from './requests.repository.js';

/**
 * What follows an upload once its scan settles, exactly once per upload whichever worker settles
 * it (request_uploads.settled_at): the `request_upload_received` webhook event, and the owner's
 * notification as the request's `notify` asks (in the console, and by mail when SMTP is set):
 * `every` upload, the `first` one only, `daily` in the console only, `off` nothing.
 */
@Injectable()
export class RequestSettlements implements OnModuleInit {
  constructor(
    private readonly scans: ScanSettlements,
    private readonly requests: RequestsRepository,
    private readonly events: WebhookEventsService,
    private readonly notifications: NotificationsRepository,
    private readonly mail: MailQueue,
  ) {}

  onModuleInit(): void {
    this.scans.listen((versionId) => this.settled(versionId));
  }

  async settled(versionId: string): Promise<void> {
    const upload = await this.requests.settle(versionId);
    if (!upload) return;
    await this.events.emit(upload.ownerId, 'request_upload_received', {
      requestId: upload.requestId,
      uploadId: upload.uploadId,
      fileId: upload.fileId,
      fileName: upload.fileName,
      sizeBytes: upload.sizeBytes,
      scanStatus: upload.scanStatus,
    });
    await this.notify(upload);
  }

  private async notify(upload: SettledUpload): Promise<void> {
    if (upload.notify === 'off' || (upload.notify === 'first' && upload.settledBefore > 0)) return;
    const id = await this.notifications.insertRequestUpload(upload.ownerId, upload.fileName, {
      requestId: upload.requestId,
      requestTitle: upload.requestTitle,
      uploadId: upload.uploadId,
      fileId: upload.fileId,
      sizeBytes: upload.sizeBytes,
      uploaderName: upload.uploaderName,
      scanStatus: upload.scanStatus,
    });
    if (upload.notify !== 'daily') await this.mail.enqueueNotifications([id]);
  }
}
